import { addRxPlugin, createRxDatabase, type RxCollection, type RxDatabase, type RxStorage } from 'rxdb';
import { RxDBLocalDocumentsPlugin } from 'rxdb/plugins/local-documents';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { ownedDocConflictHandler, type ConflictReport } from './conflict.ts';
import type { ReplicaDoc } from './row.ts';
import { pushesFor, tablesFor, type Role, type TableName } from './tables.ts';

addRxPlugin(RxDBLocalDocumentsPlugin);
addRxPlugin(RxDBMigrationSchemaPlugin);

export type ReplicaCollections = Partial<Record<TableName, RxCollection<ReplicaDoc>>>;
export type Replica = RxDatabase<ReplicaCollections>;

/** Dexie over the browser's IndexedDB; Node tests pass fake-indexeddb's factory instead. */
export function defaultStorage(): RxStorage<unknown, unknown> {
  return getRxStorageDexie() as RxStorage<unknown, unknown>;
}

/**
 * One database per user (R1): the name carries the user id, so two people on one device never
 * share rows, and sign-out removes exactly that user's database. A visitor's database only
 * has the public collections (R2).
 */
export function replicaName(userId: string | null): string {
  return userId ? `saudeja-u-${userId.toLowerCase()}` : 'saudeja-visitor';
}

export async function openReplica(opts: {
  storage: RxStorage<unknown, unknown>;
  userId: string | null;
  role: Role;
  multiInstance: boolean;
  onConflict(report: ConflictReport): void;
}): Promise<Replica> {
  const db = await createRxDatabase<ReplicaCollections>({
    name: replicaName(opts.userId),
    storage: opts.storage,
    multiInstance: opts.multiInstance,
    localDocuments: true,
    // Vite HMR and React StrictMode may open the same replica twice (rxdb-sync.md §1.2).
    closeDuplicates: true,
  });
  const specs = tablesFor(opts.role);
  try {
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
