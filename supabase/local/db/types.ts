/**
 * The one database interface every service of the local platform talks to. PGlite (embedded)
 * and PostgreSQL (node-pg pool) both implement it, so nothing above this folder knows which
 * one it runs on.
 *
 * Values come back as Postgres' text form for timestamps, dates, times, int8 and numeric:
 * responses that must match PostgREST build their JSON in SQL (`to_jsonb`/`json_agg`), and
 * internal code casts explicitly, so driver-specific Date/bigint conversions never leak.
 */
export type Row = Record<string, unknown>;

export type QueryResult<T = Row> = { rows: T[]; rowCount: number };

export interface Queryable {
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Runs a multi-statement SQL script (migrations); no parameters. */
  exec(sql: string): Promise<void>;
}

export type Notification = { channel: string; payload: string };

/** One SQL statement with its bound parameters. */
export type Statement = { sql: string; params?: readonly unknown[] };

export type WorkOptions = {
  /**
   * The caller's `statement_timeout` in milliseconds, when it has one. PostgreSQL enforces the
   * setting itself; PGlite cannot, so its thread stops the engine when work outlives this
   * (db/pglite-thread.ts).
   */
  timeoutMs?: number | undefined;
};

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` inside BEGIN/COMMIT on one connection; rolls back if it throws. `prelude` is sent
   * together with BEGIN (one round trip on PostgreSQL) — for a request that must first set its
   * role and claims.
   */
  transaction<T>(
    fn: (tx: Queryable) => Promise<T>,
    opts?: WorkOptions & { prelude?: Statement },
  ): Promise<T>;
  /**
   * Runs `statements` as one transaction and resolves to each one's result; the first error
   * rolls everything back and rejects with it. The statements leave together and run as one
   * implicit transaction (no BEGIN/COMMIT), so on PostgreSQL the whole batch costs one network
   * round trip — the fast path for work that needs no decision between its statements. Each
   * statement text is prepared once per connection (db/prepared.ts) and only bound afterwards.
   * Batches that arrive together are sent together: pipelined on shared connections on
   * PostgreSQL (db/batch-lanes.ts; `readOnly` ones, that write nothing, take lanes of their
   * own), in one engine call on PGlite.
   */
  batch(
    statements: readonly Statement[],
    opts?: WorkOptions & { readOnly?: boolean },
  ): Promise<QueryResult[]>;
  /**
   * LISTEN on a channel; resolves to an unsubscribe function. `onReconnect` runs after a lost
   * listening connection was re-established: notifications sent in between are gone, so the
   * consumer must catch up from durable state.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onReconnect?: () => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** A Postgres error as both drivers surface it: SQLSTATE plus the server's fields. */
export type PgError = Error & {
  code?: string;
  detail?: string;
  hint?: string;
  constraint?: string;
  table?: string;
  column?: string;
};

export function isPgError(e: unknown): e is PgError {
  return e instanceof Error && typeof (e as PgError).code === 'string';
}
