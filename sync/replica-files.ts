/**
 * Where a person's replica lives in IndexedDB, apart from RxDB: the app asks whether the
 * device holds one before the engine's chunk has loaded (sync/presence.ts), and the engine
 * finds the same files to resume or delete them (database.ts).
 */

/** Where the replica lives: the browser's IndexedDB, or fake-indexeddb's in Node. */
export type IndexedDbSource = { factory: IDBFactory; keyRange: typeof IDBKeyRange };

export function browserIndexedDb(): IndexedDbSource {
  return { factory: indexedDB, keyRange: IDBKeyRange };
}

/**
 * One database per user (R1): the name carries the user id, so two people on one device never
 * share rows, and sign-out removes exactly that user's database. A visitor's database only
 * has the public collections (R2).
 */
export function replicaName(userId: string | null): string {
  return userId ? `saudeja-u-${userId.toLowerCase()}` : 'saudeja-visitor';
}

/** The IndexedDB databases of a user's replica: RxDB's Dexie storage names each by this. */
export async function replicaFiles(
  source: IndexedDbSource,
  userId: string | null,
): Promise<string[]> {
  const prefix = `rxdb-dexie-${replicaName(userId)}--`;
  const all = await source.factory.databases();
  return all.map((d) => d.name ?? '').filter((name) => name.startsWith(prefix));
}

/** Whether this device holds any of the user's replica (a first sync starts without). */
export async function hasReplicaFiles(
  source: IndexedDbSource,
  userId: string | null,
): Promise<boolean> {
  return (await replicaFiles(source, userId)).length > 0;
}
