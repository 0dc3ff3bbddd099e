import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A new in-memory PGlite starts with an empty file system and runs initdb in WebAssembly: about
 * 5 s of CPU, the same files every time. The test suites open one such database per file, so
 * that cost was most of an in-memory start. The first start on a machine keeps the cluster
 * initdb made (before any statement ran); later starts load it instead, which costs under a
 * second. The copy is keyed by PGlite's version, so an upgrade makes a new one.
 *
 * The cache is a convenience: a copy that cannot be written or read is skipped, and the
 * database starts the slow way.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** node_modules/.cache/saudeja/, named after the PGlite that made it. */
let cacheFile: Promise<string> | undefined;
export function keptClusterPath(): Promise<string> {
  cacheFile ??= readFile(join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8').then(
    (text) =>
      join(
        root,
        'node_modules/.cache/saudeja',
        `pglite-${(JSON.parse(text) as { version: string }).version}-new-cluster.tar`,
      ),
  );
  return cacheFile;
}

/** The kept cluster, or undefined when there is none yet (or it cannot be read). */
export async function keptNewCluster(): Promise<Blob | undefined> {
  const bytes = await keptClusterPath()
    .then((path) => readFile(path))
    .catch(() => undefined);
  return bytes ? new Blob([bytes]) : undefined;
}

/**
 * Keeps `cluster` (PGlite's `dumpDataDir('none')` of a database no statement has touched).
 * Written beside and renamed into place, so a concurrent start never reads half a file.
 */
export async function keepNewCluster(cluster: Blob): Promise<void> {
  const path = await keptClusterPath().catch(() => undefined);
  if (!path) return;
  const partial = `${path}.${process.pid}.${Date.now()}.partial`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(partial, Buffer.from(await cluster.arrayBuffer()));
    await rename(partial, path);
  } catch {
    await rm(partial, { force: true });
  }
}

/** Drops a kept cluster PGlite could not start from. */
export async function forgetNewCluster(): Promise<void> {
  const path = await keptClusterPath().catch(() => undefined);
  if (path) await rm(path, { force: true });
}
