import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stunBinding } from './turn-client.ts';

/**
 * Debian's coturn (`apt-get install coturn`) on loopback, as the consultation room's relay in
 * tests: the REST-API scheme (`use-auth-secret`) with a known secret, no config file, no CLI, no
 * TLS, and loopback peers allowed (both browsers of a test are on this machine). The vitest
 * suites start one per file with `startCoturn`; playwright.config.ts runs one for the e2e
 * product with the same flags (`coturnCommand`).
 */
export const TURNSERVER = process.env.TURNSERVER_PATH ?? '/usr/bin/turnserver';

export type CoturnFlags = {
  port: number;
  secret: string;
  realm: string;
  /** Where coturn may write its pid file and its (unused) user database. */
  workDir: string;
};

export function coturnArgs(f: CoturnFlags): string[] {
  return [
    '-n',
    '--listening-ip=127.0.0.1',
    '--relay-ip=127.0.0.1',
    `--listening-port=${f.port}`,
    '--use-auth-secret',
    `--static-auth-secret=${f.secret}`,
    `--realm=${f.realm}`,
    '--no-cli',
    '--no-tls',
    '--no-dtls',
    '--allow-loopback-peers',
    `--pidfile=${join(f.workDir, 'turnserver.pid')}`,
    `--userdb=${join(f.workDir, 'turndb')}`,
    '--log-file=stdout',
    '--simple-log',
  ];
}

function assertInstalled(): void {
  if (!existsSync(TURNSERVER)) {
    throw new Error(
      `coturn's turnserver is not at ${TURNSERVER}: install Debian's coturn (apt-get install coturn) ` +
        'or set TURNSERVER_PATH. The TURN tests do not skip without it.',
    );
  }
}

/** The shell command of a coturn in the foreground, for Playwright's webServer. */
export function coturnCommand(f: CoturnFlags): string {
  assertInstalled();
  return `mkdir -p ${f.workDir} && exec ${TURNSERVER} ${coturnArgs(f).join(' ')}`;
}

export type Coturn = {
  host: '127.0.0.1';
  port: number;
  secret: string;
  realm: string;
  /** `TURN_URLS` for the product: UDP and TCP on the listening port. */
  urls: string[];
  stop(): Promise<void>;
};

/** A UDP port nobody holds right now (coturn takes the same number for TCP). */
function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts coturn on a free loopback port and resolves once it answers STUN. */
export async function startCoturn(opts: { secret?: string; realm?: string } = {}): Promise<Coturn> {
  assertInstalled();
  const secret = opts.secret ?? 'segredo-do-turn-de-teste';
  const realm = opts.realm ?? 'saudeja.test';
  let lastFailure = '';
  // A port taken between the probe and coturn's bind makes coturn exit: try another.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freeUdpPort();
    const workDir = mkdtempSync(join(tmpdir(), 'coturn-'));
    const child = spawn(TURNSERVER, coturnArgs({ port, secret, realm, workDir }), {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-8000)));
    child.stderr.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-8000)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let exitCode: number | null | undefined;
    void exited.then((code) => (exitCode = code));
    const stop = async () => {
      if (exitCode === undefined) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(workDir, { recursive: true, force: true });
    };
    for (let i = 0; i < 100 && exitCode === undefined; i++) {
      if (await stunBinding('127.0.0.1', port)) {
        return {
          host: '127.0.0.1',
          port,
          secret,
          realm,
          urls: [`turn:127.0.0.1:${port}?transport=udp`, `turn:127.0.0.1:${port}?transport=tcp`],
          stop,
        };
      }
      await sleep(100);
    }
    await stop();
    lastFailure = `coturn did not answer on 127.0.0.1:${port} (exit ${String(exitCode)}):\n${log}`;
  }
  throw new Error(lastFailure);
}
