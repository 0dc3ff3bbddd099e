import type { Database } from './types.ts';
import { openPgliteThread, type ReopenCause } from './pglite-thread.ts';
import { openPostgres } from './postgres.ts';

export type DatabaseTarget = { databaseUrl: string } | { dataDir?: string };

export type DatabaseHooks = {
  /** PGlite only: its engine was stopped and reopened (db/pglite-thread.ts). */
  onReopen?: (cause: ReopenCause) => void;
};

/**
 * PostgreSQL when a URL is given, otherwise PGlite in its own thread (on disk, or in memory
 * without dataDir).
 */
export function openDatabase(target: DatabaseTarget, hooks: DatabaseHooks = {}): Promise<Database> {
  return 'databaseUrl' in target
    ? openPostgres(target.databaseUrl)
    : openPgliteThread(target.dataDir, hooks.onReopen);
}

export type { Database, Queryable, Row, QueryResult, PgError, Statement } from './types.ts';
export { isPgError } from './types.ts';
