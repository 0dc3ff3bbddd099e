/**
 * `npm start` for a benchmark: the whole product on ports of its own over a fresh data
 * directory, stopped with its process group.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

export function startProduct(ports: { app: number; api: number }, dataDir: string) {
  rmSync(dataDir, { recursive: true, force: true });
  const child = spawn('npx', ['tsx', 'scripts/start.ts'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      APP_PORT: String(ports.app),
      API_PORT: String(ports.api),
      DATA_DIR: dataDir,
      AUTH_RATE_LIMIT: 'false',
      LOG_LEVEL: 'error',
    },
  });
  return {
    stop: () => {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    },
  };
}

export async function waitUntilUp(url: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const up = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${url} did not come up in ${timeoutMs / 1000} s`);
}
