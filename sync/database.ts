import {
  addRxPlugin,
  createRxDatabase,
  type RxCollection,
  type RxDatabase,
  type RxStorage,
} from 'rxdb';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { RxDBLocalDocumentsPlugin } from 'rxdb/plugins/local-documents';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { ownedDocConflictHandler, type ConflictReport } from './conflict.ts';
import { yieldToMainThread } from './runtime.ts';
import { useSparseReads } from './sparse-reads.ts';
import {
  neverPushed,
  pushesFor,
  tablesFor,
  type ReplicaDoc,
  type Role,
  type TableName,
  type TableSpec,
} from './tables.ts';
import {
  browserIndexedDb,
  replicaFiles,
  replicaName,
  type IndexedDbSource,
} from './replica-files.ts';

addRxPlugin(RxDBLeaderElectionPlugin);
addRxPlugin(RxDBLocalDocumentsPlugin);
addRxPlugin(RxDBMigrationSchemaPlugin);

export type ReplicaCollections = Partial<Record<TableName, RxCollection<ReplicaDoc>>>;
export type Replica = RxDatabase<ReplicaCollections>;

export function dexieStorage(source: IndexedDbSource): RxStorage<unknown, unknown> {
  return getRxStorageDexie({
    indexedDB: source.factory,
    IDBKeyRange: source.keyRange,
    onCreate: useSparseReads,
    // Every index costs each put of a first sync an index entry (docs/replication.md §1.1).
    onlyOwnIndexes: neverPushed,
  });
}

/**
 * RxDB's remove() empties the Dexie databases but leaves them, named after the user, in
 * IndexedDB; sign-out deletes them too so nothing of the user stays on the device (R1).
 */
export async function deleteReplicaFiles(
  source: IndexedDbSource,
  userId: string | null,
): Promise<void> {
  const names = await replicaFiles(source, userId);
  await Promise.all(
    names.map(
      (name) =>
        new Promise<void>((resolve, reject) => {
          const request = source.factory.deleteDatabase(name);
          request.onsuccess = () => resolve();
          request.onerror = () => reject(request.error ?? new Error(`could not delete ${name}`));
          request.onblocked = () => resolve();
        }),
    ),
  );
}

/**
 * Deletes a closed replica of `userId`, queue included (R1), without opening it: for the
 * replica a refused session left behind when someone else signs in on the device.
 */
export async function deleteReplica(
  userId: string,
  indexedDB: IndexedDbSource = browserIndexedDb(),
): Promise<void> {
  await deleteReplicaFiles(indexedDB, userId);
}

export async function openReplica(opts: {
  storage: RxStorage<unknown, unknown>;
  userId: string | null;
  role: Role;
  multiInstance: boolean;
  onConflict: (report: ConflictReport) => void;
  /** The replicated tables; TABLES unless a test exercises another schema version (R4). */
  tables?: readonly TableSpec[];
}): Promise<Replica> {
  const db = await createRxDatabase<ReplicaCollections>({
    name: replicaName(opts.userId),
    storage: opts.storage,
    multiInstance: opts.multiInstance,
    localDocuments: true,
    // Vite HMR and React StrictMode may open the same replica twice (docs/replication.md §1.2).
    closeDuplicates: true,
  });
  const specs = tablesFor(opts.role, opts.tables);
  try {
    // The database's own stores and the collections are set up in separate tasks (the
    // patched addCollections() also yields between collections), not in one long one.
    await yieldToMainThread();
    await db.addCollections(
      Object.fromEntries(
        specs.map((spec) => [
          spec.name,
          {
            schema: spec.schema,
            migrationStrategies: spec.migrationStrategies,
            ...(pushesFor(spec, opts.role)
              ? {
                  conflictHandler: ownedDocConflictHandler(
                    spec.name,
                    spec.writable ?? [],
                    opts.onConflict,
                  ),
                }
              : {}),
          },
        ]),
      ),
    );
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
