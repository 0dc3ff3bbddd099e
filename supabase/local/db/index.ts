import type { Database } from './types.ts';
import { openPgliteThread } from './pglite-thread.ts';
import { openPostgres } from './postgres.ts';

export type DatabaseTarget = { databaseUrl: string } | { dataDir?: string };

/**
 * PostgreSQL when a URL is given, otherwise PGlite in its own thread (on disk, or in memory
 * without dataDir).
 */
export function openDatabase(target: DatabaseTarget): Promise<Database> {
  return 'databaseUrl' in target
    ? openPostgres(target.databaseUrl)
    : openPgliteThread(target.dataDir);
}

export type { Database, Queryable, Row, QueryResult, PgError, Statement } from './types.ts';
export { isPgError } from './types.ts';
