import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deriveApiKeys } from '../supabase/local/api-keys.ts';
import { DEV_JWT_SECRET } from '../supabase/local/config.ts';

/**
 * `npm run check:python`: starts `npm run server` on the conformance sample migrations and drives
 * the official Python client through it (scripts/python-client-check.py). The client comes from
 * PYTHON (a python with `supabase` installed) or is installed with pip into a throwaway venv.
 * Without python, pip or a package index it fails, saying which is missing: a check that
 * cannot run is not a check that passed.
 */

function cannotRun(reason: string): never {
  process.stderr.write(`python client check cannot run: ${reason}\n`);
  process.exit(1);
}

/** Runs outside the repository: there, `import supabase` would find the supabase/ folder. */
function runs(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore', cwd: tmpdir() }).status === 0;
}

const IMPORTS_CLIENT = 'from supabase import create_client';

/** A python that can `import supabase`, installing the package into `dir` when needed. */
function pythonWithSupabase(dir: string): string {
  const given = process.env.PYTHON ?? 'python3';
  if (!runs(given, ['--version'])) cannotRun(`no python (${given}) on this machine`);
  if (runs(given, ['-c', IMPORTS_CLIENT])) return given;
  const venv = join(dir, 'venv');
  if (!runs(given, ['-m', 'venv', venv])) cannotRun('python has no venv module to install into');
  const pip = join(venv, 'bin', 'pip');
  process.stdout.write('installing the supabase package with pip…\n');
  // One retry per index: a machine that reaches only a local mirror (pip.conf's extra index)
  // otherwise spends minutes backing off from an unreachable PyPI, package by package.
  const install = spawnSync(pip, ['install', '--quiet', '--retries', '1', 'supabase'], {
    stdio: 'inherit',
  });
  if (install.status !== 0)
    cannotRun('pip could not install the supabase package (no index reachable?)');
  return join(venv, 'bin', 'python');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitForHealth(url: string, server: ChildProcess): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode})`);
    const ok = await fetch(`${url}/auth/v1/health`, { headers: { apikey: 'probe' } })
      .then((r) => r.status < 500)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not answer within two minutes');
}

const dir = await mkdtemp(join(tmpdir(), 'python-check-'));
const python = pythonWithSupabase(dir);
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const seed = join(dir, 'seed.sql');
await writeFile(seed, '');
const server = spawn('npm', ['run', '--silent', 'server'], {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    ...process.env,
    DATABASE_URL: '',
    API_PORT: String(port),
    DATA_DIR: join(dir, 'data'),
    MIGRATIONS_DIR: 'tests/platform/sample-migrations',
    SEED_FILE: seed,
    JWT_SECRET: DEV_JWT_SECRET,
    AUTH_AUTOCONFIRM: 'true',
    AUTH_RATE_LIMIT: 'false',
    MAILBOX: 'off',
    LOG_LEVEL: 'error',
  },
  detached: true,
});

let status: number | undefined;
try {
  await waitForHealth(url, server);
  const keys = await deriveApiKeys(DEV_JWT_SECRET);
  const check = spawnSync(python, ['scripts/python-client-check.py'], {
    stdio: 'inherit',
    env: {
      ...process.env,
      SUPABASE_URL: url,
      SUPABASE_ANON_KEY: keys.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
      SUPABASE_PUBLISHABLE_KEY: keys.publishableKey,
    },
    timeout: 180_000,
  });
  status = check.status ?? 1;
} finally {
  // The server was started in its own process group: npm, tsx and node stop together.
  if (server.pid !== undefined) process.kill(-server.pid, 'SIGTERM');
  await new Promise((r) => server.once('exit', r));
  await rm(dir, { recursive: true, force: true });
}
process.exit(status ?? 1);
