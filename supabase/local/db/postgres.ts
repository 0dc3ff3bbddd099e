import pg from 'pg';
import type { Database, QueryResult, Queryable, Row, Statement } from './types.ts';
import { BatchLanes, READ_LANES, WRITE_LANES, WRITE_LANES_AT_START } from './batch-lanes.ts';
import { runBatch } from './postgres-batch.ts';
import { TEXT_OIDS, identity } from './text-types.ts';

const textTypes = {
  getTypeParser: (oid: number, format?: string) =>
    (Object.values(TEXT_OIDS) as number[]).includes(oid)
      ? identity
      : (pg.types.getTypeParser(oid, format as 'text') as (value: string) => unknown),
} as pg.CustomTypesConfig;

const toResult = <T>(r: pg.QueryResult): QueryResult<T> => ({
  rows: r.rows as T[],
  rowCount: r.rowCount ?? r.rows.length,
});

/**
 * PostgreSQL through a node-pg pool; batches (and a transaction's BEGIN with its prelude) go out
 * as one extended-protocol sequence (`runBatch`), pipelined on a few connections of their own
 * when they can be (batch-lanes.ts); LISTEN uses one dedicated client.
 */
export async function openPostgres(connectionString: string, max = 20): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max, types: textTypes });
  // An idle client dying (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  await pool.query('select 1');
  const laneConfig = { connectionString, types: textTypes };
  const readLanes = new BatchLanes(laneConfig, READ_LANES, 'pack');
  const writeLanes = new BatchLanes(laneConfig, WRITE_LANES, 'spread');
  await Promise.all([readLanes.open(), writeLanes.open(WRITE_LANES_AT_START)]);

  const wrap = (q: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      return toResult<T>(await q.query(sql, params as unknown[]));
    },
    async exec(sql: string) {
      await q.query(sql);
    },
  });

  // LISTEN needs one long-lived connection. If it drops (server restart, network), it is
  // re-established with backoff and every channel re-listened; `onReconnect` callbacks let
  // consumers catch up on what was notified while nobody listened.
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const reconnectHandlers = new Set<() => void>();
  let listener: Promise<pg.Client> | undefined;
  let closed = false;

  async function connectListener(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString, types: textTypes });
    client.on('error', () => {});
    client.on('notification', (n) => {
      for (const h of handlers.get(n.channel) ?? []) h(n.payload ?? '');
    });
    client.on('end', () => {
      listener = undefined;
      if (!closed) void reconnect();
    });
    await client.connect();
    for (const channel of handlers.keys()) {
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
    }
    return client;
  }

  async function reconnect(): Promise<void> {
    for (let delay = 250; !closed; delay = Math.min(delay * 2, 5000)) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      try {
        listener = connectListener();
        await listener;
        for (const h of reconnectHandlers) h();
        return;
      } catch {
        listener = undefined;
      }
    }
  }

  function listenerClient(): Promise<pg.Client> {
    listener ??= connectListener().catch((e: unknown) => {
      listener = undefined;
      throw e;
    });
    return listener;
  }

  /** A batch on a pooled connection of its own, when no lane can take it. */
  async function pooledBatch(statements: readonly Statement[]): Promise<QueryResult[]> {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      return await runBatch(client, statements, textTypes);
    } catch (e) {
      if (!isServerError(e)) broken = e as Error;
      throw e;
    } finally {
      client.release(broken);
    }
  }

  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn, opts) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await runBatch(
          client,
          [{ sql: 'begin' }, ...(opts?.prelude ? [opts.prelude] : [])],
          textTypes,
        );
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (e) {
        await client.query('rollback').catch((r: Error) => (broken = r));
        throw e;
      } finally {
        client.release(broken);
      }
    },
    // Not async itself: a pipelined batch's promise is handed back as it is, without another
    // promise and its turns of the microtask queue on every request.
    batch(statements, opts) {
      return (opts?.readOnly ? readLanes : writeLanes).run(statements) ?? pooledBatch(statements);
    },
    async listen(channel, onNotify, onReconnect) {
      const client = await listenerClient();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      }
      set.add(onNotify);
      if (onReconnect) reconnectHandlers.add(onReconnect);
      return () => {
        set.delete(onNotify);
        if (onReconnect) reconnectHandlers.delete(onReconnect);
        return Promise.resolve();
      };
    },
    async close() {
      closed = true;
      await listener?.then((client) => client.end()).catch(() => {});
      await Promise.all([readLanes.close(), writeLanes.close()]);
      await pool.end();
    },
  };
}

/** An error the server answered with (the connection is fine), as opposed to a broken socket. */
function isServerError(e: unknown): boolean {
  return e instanceof pg.DatabaseError;
}
