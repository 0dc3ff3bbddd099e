/**
 * Counts the IndexedDB requests and transactions a page makes, by method: a first sync's cost
 * in Chromium is mostly a fixed price per request (each crosses to the browser process), so
 * bench/sync prints how many it makes per row beside its rate.
 */
export type IdbRequestCounts = { transactions: number; requests: Record<string, number> };

const COUNTED: ReadonlyArray<[{ prototype: object }, string, readonly string[]]> = [
  [
    IDBObjectStore,
    'store',
    [
      'put',
      'add',
      'get',
      'getKey',
      'getAll',
      'getAllKeys',
      'count',
      'delete',
      'clear',
      'openCursor',
      'openKeyCursor',
    ],
  ],
  [
    IDBIndex,
    'index',
    ['get', 'getKey', 'getAll', 'getAllKeys', 'count', 'openCursor', 'openKeyCursor'],
  ],
  [IDBCursor, 'cursor', ['continue', 'advance', 'continuePrimaryKey']],
];

/** Starts counting; the returned function reads the counts so far. */
export function countIdbRequests(): () => IdbRequestCounts {
  const counted: { name: string; n: number }[] = [];
  for (const [type, label, methods] of COUNTED) {
    const proto = type.prototype as Record<string, (a?: unknown, b?: unknown) => unknown>;
    for (const method of methods) {
      const original = proto[method];
      if (typeof original !== 'function') continue;
      const count = { name: `${label}.${method}`, n: 0 };
      counted.push(count);
      // Two parameters cover every counted method (an optional one passed as undefined is
      // one not passed); no rest arguments on a path that runs per row.
      proto[method] = function (this: unknown, a?: unknown, b?: unknown) {
        count.n++;
        return original.call(this, a, b);
      };
    }
  }
  let transactions = 0;
  const { transaction } = IDBDatabase.prototype as {
    transaction: (...args: unknown[]) => IDBTransaction;
  };
  IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: unknown[]) {
    transactions++;
    return transaction.apply(this, args);
  };
  return () => ({
    transactions,
    requests: Object.fromEntries(counted.filter((c) => c.n > 0).map((c) => [c.name, c.n])),
  });
}
