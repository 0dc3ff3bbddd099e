import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import type { Database, QueryResult, Queryable, Row } from './types.ts';
import { TEXT_OIDS, identity } from './text-types.ts';

const parsers = Object.fromEntries(Object.values(TEXT_OIDS).map((oid) => [oid, identity]));

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
        if (opts?.prelude) await tx.exec(opts.prelude);
        return fn(wrap(tx));
      }),
    listen: async (channel, onNotify) => {
      const unlisten = await pg.listen(channel, onNotify);
      return async () => unlisten();
    },
    close: () => pg.close(),
  };
}
