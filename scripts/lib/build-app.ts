import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const INPUTS = [
  'src',
  'sync',
  'public',
  'index.html',
  'vite.config.ts',
  'panda.config.ts',
  'package-lock.json',
  // What patch-package changes in node_modules goes into the bundle too.
  'patches',
  'scripts/lib/precompress.ts',
  'scripts/lib/page-chunks.ts',
  'scripts/lib/page-preload.ts',
  'scripts/lib/inline-script.ts',
];

async function hashTree(path: string, hash: ReturnType<typeof createHash>): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return;
  if (info.isDirectory()) {
    for (const entry of (await readdir(path)).sort()) {
      if (!entry.endsWith('.test.ts') && !entry.endsWith('.test.tsx'))
        await hashTree(join(path, entry), hash);
    }
    return;
  }
  hash.update(path).update(await readFile(path));
}

/**
 * Builds the PWA unless `outDir` (default dist/) already holds a build of exactly these sources
 * for exactly this API (the URL and key are baked into the bundle), so `npm start` is fast
 * after the first run. A second product on other ports (an e2e test's own server) builds into
 * a directory of its own, so the first one keeps serving its bundle.
 */
export async function buildAppIfNeeded(
  env: { VITE_SUPABASE_URL: string; VITE_SUPABASE_ANON_KEY: string },
  outDir = 'dist',
) {
  const stamp = join(outDir, '.build-stamp');
  const hash = createHash('sha256').update(JSON.stringify(env));
  for (const input of INPUTS) await hashTree(input, hash);
  const digest = hash.digest('hex');
  if ((await readFile(stamp, 'utf8').catch(() => '')) === digest) return { built: false };
  // The build's own report (a line per chunk) is for `npm run build`; here it would bury the
  // URLs and logins a newcomer is looking for, so it is shown only when the build fails.
  process.stdout.write('Building the app (first start, or its sources changed)…\n');
  const started = performance.now();
  const result = spawnSync('npm', ['run', 'build', '--silent', '--', '--outDir', outDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    throw new Error('The app build failed (npm run build); see the output above.');
  }
  process.stdout.write(`Built in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
  await writeFile(stamp, digest);
  return { built: true };
}
