import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export type Child<T> = { ready: T; pid: number; stop: () => Promise<void> };

/**
 * Runs a TypeScript file in its own Node process (so what it serves does not share the
 * measuring process's event loop or CPU) and resolves with the JSON it prints on its first
 * stdout line once it is ready. `stop` sends SIGTERM and waits for the exit.
 */
export async function startChild<T>(
  script: string,
  env: NodeJS.ProcessEnv = {},
): Promise<Child<T>> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return {
    ready: JSON.parse(first) as T,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
