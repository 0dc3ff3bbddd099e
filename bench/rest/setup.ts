import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startChild } from '../child.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/** A fresh database on the PostgreSQL server of `serverUrl`, dropped by `drop`. */
export async function freshPostgres(
  serverUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bench_rest_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export type ServerProcess = {
  pid: number;
  url: string;
  floorUrl: string;
  anonKey: string;
  stop(): Promise<void>;
};

/** Starts bench/rest/server.ts in a child process (PGlite in memory unless a URL is given). */
export async function startServer(databaseUrl: string | undefined): Promise<ServerProcess> {
  const child = await startChild<{ url: string; floorUrl: string; anonKey: string }>(
    fileURLToPath(new URL('./server.ts', import.meta.url)),
    databaseUrl ? { BENCH_DATABASE_URL: databaseUrl } : {},
  );
  return { ...child.ready, pid: child.pid, stop: child.stop };
}

export type Backend = 'postgres' | 'pglite';

/**
 * Runs `bench` on PostgreSQL (a fresh database on the server of DATABASE_URL, the machine's own
 * by default, dropped afterwards) and then on PGlite, or on the one `BENCH_BACKENDS` names
 * (`postgres` or `pglite`); resolves to all their results.
 */
export async function onEachBackend<T>(
  bench: (backend: Backend, databaseUrl: string | undefined) => Promise<T[]>,
): Promise<T[]> {
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const backends = (process.env.BENCH_BACKENDS ?? 'postgres,pglite').split(',');
  const results: T[] = [];
  if (backends.includes('postgres')) {
    const pgDb = await freshPostgres(serverUrl);
    try {
      results.push(...(await bench('postgres', pgDb.url)));
    } finally {
      await pgDb.drop();
    }
  }
  if (backends.includes('pglite')) results.push(...(await bench('pglite', undefined)));
  return results;
}
