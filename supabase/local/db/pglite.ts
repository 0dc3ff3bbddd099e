import { mkdir } from 'node:fs/promises';
import { PGlite, types, type messages } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import type { Database, QueryResult, Queryable, Row } from './types.ts';
import { batchMessages } from './protocol.ts';
import { isStalePlan, PreparedStatements, statementName } from './prepared.ts';
import { ResultCollector } from './results.ts';
import { TEXT_OIDS, identity } from './text-types.ts';

const parsers = Object.fromEntries(Object.values(TEXT_OIDS).map((oid) => [oid, identity]));

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

/**
 * Embedded Postgres. `dataDir` undefined means in-memory (tests). PGlite has a single
 * connection: its own mutex serialises transactions, so a transaction is exclusive.
 */
export async function openPglite(dataDir?: string): Promise<Database> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const pg = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    extensions: { btree_gist, pgcrypto },
    parsers,
  });
  // PGlite is one backend: one set of prepared statements for the whole database.
  const prepared = new PreparedStatements();

  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const r = await q.query<T>(sql, params as unknown[]);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });

  return {
    kind: 'pglite',
    ...wrap(pg),
    transaction: (fn, opts) =>
      pg.transaction(async (tx) => {
        if (opts?.prelude) await tx.query(opts.prelude.sql, opts.prelude.params as unknown[]);
        return fn(wrap(tx));
      }),
    // One call into the engine instead of six per statement plus BEGIN and COMMIT. Both locks
    // are taken as `transaction` takes them, so a batch never lands inside another's transaction.
    batch: (statements) =>
      pg._runExclusiveTransaction(() =>
        pg._runExclusiveQuery(async () => {
          const names = statements.map((s) => statementName(s.sql));
          const run = () => pg.execProtocol(batchMessages(statements, names, prepared));
          const { messages } = await run().catch((e: unknown) => {
            if (!isStalePlan(e)) throw e;
            for (const name of names) prepared.forget(name);
            return run();
          });
          for (const name of names) prepared.confirm(name);
          return toResults(messages, pg.parsers);
        }),
      ),
    listen: async (channel, onNotify) => {
      const unlisten = await pg.listen(channel, onNotify);
      return async () => unlisten();
    },
    close: () => pg.close(),
  };
}
