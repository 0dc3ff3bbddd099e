import { mkdir } from 'node:fs/promises';
import { PGlite, types, type messages } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import type { Database, QueryResult, Queryable, Row, Statement } from './types.ts';
import { batchMessages } from './protocol.ts';
import { isStalePlan, PreparedStatements, statementName } from './prepared.ts';
import { ResultCollector } from './results.ts';
import { TEXT_OIDS, identity } from './text-types.ts';
import { forgetNewCluster, keepNewCluster, keptNewCluster } from './pglite-cluster-cache.ts';

const parsers = Object.fromEntries(Object.values(TEXT_OIDS).map((oid) => [oid, identity]));
const EXTENSIONS = { btree_gist, pgcrypto };

/** An in-memory database, started from the kept new cluster when there is one (its module). */
async function newInMemory(): Promise<PGlite> {
  const kept = await keptNewCluster();
  if (kept) {
    const loaded = await PGlite.create({ loadDataDir: kept, extensions: EXTENSIONS, parsers })
      // A copy this PGlite cannot start from is dropped, and made again below.
      .catch(() => forgetNewCluster().then(() => undefined));
    if (loaded) return loaded;
  }
  const pg = await PGlite.create({ extensions: EXTENSIONS, parsers });
  await keepNewCluster(await pg.dumpDataDir('none'));
  return pg;
}

/**
 * One result per statement from a batch's backend messages, rows typed as `query` types them.
 * Read straight off the messages: PGlite's `parseResults` builds each row through intermediate
 * arrays and `Object.fromEntries`, which showed on the REST hot path.
 */
function toResults(
  replies: readonly messages.BackendMessage[],
  parsers: Parameters<typeof types.parseType>[2],
): QueryResult[] {
  const collected = new ResultCollector(
    (oid) =>
      (text): unknown =>
        types.parseType(text, oid, parsers) as unknown,
  );
  for (const reply of replies) {
    if (reply.name === 'rowDescription') {
      collected.rowDescription((reply as messages.RowDescriptionMessage).fields);
    } else if (reply.name === 'dataRow') {
      collected.dataRow((reply as messages.DataRowMessage).fields);
    } else if (reply.name === 'commandComplete') {
      collected.commandComplete((reply as messages.CommandCompleteMessage).text);
    } else if (reply.name === 'emptyQuery') {
      collected.emptyQuery();
    }
  }
  return collected.results;
}

/** A batch waiting for its turn in the engine; a stale plan gets one more try. */
type Queued = {
  statements: readonly Statement[];
  resolve(results: QueryResult[]): void;
  reject(error: unknown): void;
  retried: boolean;
  /** Told to `onEnter` when the batch goes into the engine (db/pglite-thread.ts's watchdog). */
  tag?: number;
};

/** The embedded database, plus what the engine's own thread (db/pglite-worker.ts) needs. */
export type PgliteDatabase = Database & {
  /** `batch`, with `tag` passed to `onEnter` each time the batch goes into the engine. */
  batchTagged(statements: readonly Statement[], tag: number): Promise<QueryResult[]>;
};

/**
 * Embedded Postgres, in the calling thread. `dataDir` undefined means in-memory (tests). PGlite
 * has a single connection: its own mutex serialises transactions, so a transaction is
 * exclusive. `onEnter` hears the tags of the batches each engine call starts.
 */
export async function openPglite(
  dataDir?: string,
  onEnter?: (tags: number[]) => void,
): Promise<PgliteDatabase> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const pg = dataDir
    ? await PGlite.create({ dataDir, extensions: EXTENSIONS, parsers })
    : await newInMemory();
  // PGlite is one backend: one set of prepared statements for the whole database.
  const prepared = new PreparedStatements();

  /*
   * Batches waiting for the engine. Whatever has queued by the end of the event-loop turn (and
   * while the engine was busy) goes in as one call: the batches stay separate transactions (each
   * ends with its own Sync), but the engine is entered once. Entering it costs as much as a small
   * batch (REST reads on PGlite: ~2,400/s one call per batch, ~4,000/s together; bench/rest).
   */
  const queued: Queued[] = [];
  let draining = false;

  async function drain(): Promise<void> {
    try {
      while (queued.length) {
        const group = queued.splice(0);
        // Both locks as `transaction` takes them, so no batch lands inside another's transaction.
        await pg
          ._runExclusiveTransaction(() => pg._runExclusiveQuery(() => runTogether(group)))
          .catch((e: unknown) => group.forEach((b) => b.reject(e)));
      }
    } finally {
      draining = false;
    }
  }

  async function runTogether(waiting: Queued[]): Promise<void> {
    const group: { batch: Queued; names: string[] }[] = [];
    const parts: Buffer[] = [];
    for (const batch of waiting) {
      const names = batch.statements.map((s) => statementName(s.sql));
      try {
        parts.push(batchMessages(batch.statements, names, prepared));
        group.push({ batch, names });
      } catch (e) {
        batch.reject(e);
      }
    }
    if (!group.length) return;
    onEnter?.(group.flatMap(({ batch }) => (batch.tag === undefined ? [] : [batch.tag])));
    let messages: messages.BackendMessage[];
    try {
      ({ messages } = await pg.execProtocol(Buffer.concat(parts), { throwOnError: false }));
    } catch (e) {
      for (const { batch } of group) batch.reject(e);
      return;
    }
    let from = 0;
    for (const { batch, names } of group) {
      let to = from;
      while (to < messages.length && messages[to]!.name !== 'readyForQuery') to++;
      const replies = messages.slice(from, to);
      from = to + 1;
      const error = replies.find((m) => m.name === 'error');
      if (error && isStalePlan(error) && !batch.retried) {
        for (const name of names) prepared.forget(name);
        queued.push({ ...batch, retried: true });
      } else if (error) {
        batch.reject(error);
      } else if (to === messages.length) {
        batch.reject(new Error('PGlite ended a batch without answering it'));
      } else {
        for (const name of names) prepared.confirm(name);
        batch.resolve(toResults(replies, pg.parsers));
      }
    }
  }

  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const r = await q.query<T>(sql, params as unknown[]);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });

  function enqueue(batch: Queued): void {
    queued.push(batch);
    if (draining) return;
    draining = true;
    // After this turn's I/O: requests that arrived together are parsed by then.
    setImmediate(() => void drain());
  }

  return {
    kind: 'pglite',
    ...wrap(pg),
    transaction: (fn, opts) =>
      pg.transaction(async (tx) => {
        if (opts?.prelude) await tx.query(opts.prelude.sql, opts.prelude.params as unknown[]);
        return fn(wrap(tx));
      }),
    batch: (statements) =>
      new Promise((resolve, reject) => enqueue({ statements, resolve, reject, retried: false })),
    batchTagged: (statements, tag) =>
      new Promise((resolve, reject) =>
        enqueue({ statements, resolve, reject, retried: false, tag }),
      ),
    listen: async (channel, onNotify) => {
      const unlisten = await pg.listen(channel, onNotify);
      return async () => unlisten();
    },
    close: () => pg.close(),
  };
}
