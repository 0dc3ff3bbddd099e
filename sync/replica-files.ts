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

const USER_PREFIX = 'saudeja-u-';

/**
 * One database per user (R1): the name carries the user id, so two people on one device never
 * share rows, and sign-out removes exactly that user's database. A visitor's database only
 * has the public collections (R2).
 */
export function replicaName(userId: string | null): string {
  return userId ? `${USER_PREFIX}${userId.toLowerCase()}` : 'saudeja-visitor';
}

/** RxDB's Dexie storage names each of a replica's databases `rxdb-dexie-<name>--…`. */
const DEXIE_PREFIX = 'rxdb-dexie-';

/**
 * How every signed-in person's replica database name starts: index.html checks for one before
 * the app has started, to preload the engine (scripts/lib/page-preload.ts).
 */
export const SIGNED_IN_REPLICA_PREFIX = `${DEXIE_PREFIX}${USER_PREFIX}`;

/** The IndexedDB databases of a user's replica: RxDB's Dexie storage names each by this. */
export async function replicaFiles(
  source: IndexedDbSource,
  userId: string | null,
): Promise<string[]> {
  const prefix = `${DEXIE_PREFIX}${replicaName(userId)}--`;
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
