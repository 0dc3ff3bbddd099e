import { browserIndexedDb, hasReplicaFiles, type IndexedDbSource } from './replica-files.ts';

/**
 * The engine's light entry: what the app may ask before the engine's chunk (RxDB, rxjs, most of
 * the app's JavaScript) is loaded. A signed-in screen on a device without the person's replica
 * paints its first list from a network read instead, and the engine loads after that paint
 * (src/session/sync-provider.tsx). It imports nothing but replica-files.ts.
 */

/**
 * Whether this device holds `userId`'s replica. A device that cannot tell (IndexedDB blocked,
 * `databases()` missing) answers true: the screen then takes the replica's path, as before.
 */
export async function hasReplica(
  userId: string,
  source: IndexedDbSource | null = null,
): Promise<boolean> {
  try {
    return await hasReplicaFiles(source ?? browserIndexedDb(), userId);
  } catch {
    return true;
  }
}
