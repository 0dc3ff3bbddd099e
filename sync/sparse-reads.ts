import type { DBCore, DBCoreGetManyRequest, DBCoreTable, Dexie, Middleware } from 'dexie';

/**
 * Below this many keys a read asks for each key, as Dexie does: listing a range would cost more.
 */
const FEW_KEYS = 16;

/**
 * A range read may list at most this many stored keys per key asked for; a range that dense
 * is read key by key instead, so a small read in a big store never lists the whole store.
 */
const KEYS_LISTED_PER_KEY = 16;

/** IndexedDB's DBCoreRangeType.Range (a const enum in Dexie's types, so not importable). */
const RANGE = 2;

/**
 * Reads many documents by primary key, asking IndexedDB only for those it has: first the
 * stored keys between the smallest and the largest wanted key (one `getAllKeys`), then one
 * `get` per key found. RxDB reads documents by id before it writes them — the pull of a
 * collection that pushes (`findDocumentsById`, on the collection and on the replication's meta
 * store), and the write of an update, to find conflicts — and Dexie asks for each key, so
 * reading a page of ids the replica mostly lacks cost a request per id. In Chromium each
 * request crosses to the storage process. (An insert is not read first at all: the patched
 * Dexie storage adds it, and reads only the ids IndexedDB refused; sync/SPEC.md, design.)
 * Same answer as Dexie's: one entry per key, `undefined` if absent.
 */
async function sparseGetMany(table: DBCoreTable, req: DBCoreGetManyRequest): Promise<unknown[]> {
  const keys = req.keys.filter((k): k is string => typeof k === 'string');
  if (keys.length < FEW_KEYS || keys.length !== req.keys.length) return table.getMany(req);
  // The range's ends only: a linear pass, not a sort of every key (three reads per pulled page).
  let lower = keys[0]!;
  let upper = lower;
  for (const k of keys) {
    if (k < lower) lower = k;
    else if (k > upper) upper = k;
  }
  const limit = keys.length * KEYS_LISTED_PER_KEY;
  const { result: stored } = await table.query({
    trans: req.trans,
    values: false,
    limit,
    query: { index: table.schema.primaryKey, range: { type: RANGE, lower, upper } },
  });
  if (stored.length >= limit) return table.getMany(req);
  const present = new Set(stored as string[]);
  const wanted = keys.filter((k) => present.has(k));
  const found: unknown[] = wanted.length > 0 ? await table.getMany({ ...req, keys: wanted }) : [];
  const byKey = new Map<string, unknown>(wanted.map((k, i) => [k, found[i]]));
  return keys.map((k) => byKey.get(k));
}

const sparseReads: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'SparseReads',
  // Right above IndexedDB: Dexie's own middlewares see an ordinary getMany.
  level: -2,
  create: (down) => ({
    ...down,
    table: (name) => {
      const table = down.table(name);
      // Only tables keyed by an inbound primary key (RxDB's docs tables) list their keys.
      if (table.schema.primaryKey.outbound || table.schema.primaryKey.keyPath === null) {
        return table;
      }
      return { ...table, getMany: (req) => sparseGetMany(table, req) };
    },
  }),
};

/** Dexie settings' `onCreate` for RxDB's Dexie storage: every replica database reads sparsely. */
export function useSparseReads(db: Dexie): void {
  db.use(sparseReads);
}
