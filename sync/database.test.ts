import { IDBDatabase, IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, expect, it } from 'vitest';
import { dexieStorage, openReplica } from './database.ts';
import type { IndexedDbSource } from './replica-files.ts';

/**
 * What reopening a replica asks of RxDB's internal store (patches/rxdb+17.6.0.patch): the
 * storage token, and one read of every collection document, current and earlier versions.
 * RxDB itself reads the earlier versions three times per collection whose schema version is
 * above 0, and its migration status once more, each in its own transaction; on a phone those
 * transactions were most of the replica's start after the databases opened.
 */

const { transaction } = Object.getOwnPropertyDescriptors(IDBDatabase.prototype);
afterEach(() => {
  Object.defineProperty(IDBDatabase.prototype, 'transaction', transaction);
});

/** The transactions of the internal store, as `mode stores`, from now on. */
function internalStoreTransactions(): string[] {
  const seen: string[] = [];
  const open = transaction.value as IDBDatabase['transaction'];
  IDBDatabase.prototype.transaction = function (
    this: IDBDatabase,
    stores: string | string[],
    mode?: IDBTransactionMode,
  ) {
    if (this.name.endsWith('--_rxdb_internal')) {
      seen.push(`${mode ?? 'readonly'} ${[stores].flat().join(',')}`);
    }
    return open.call(this, stores, mode);
  };
  return seen;
}

function open(source: IndexedDbSource) {
  return openReplica({
    storage: dexieStorage(source),
    userId: 'c0000000-0000-4000-8000-000000000001',
    role: 'medico',
    multiInstance: false,
    onConflict: () => undefined,
  });
}

it('reopens a replica with one read of the collection documents and no migration reads', async () => {
  const source = { factory: new IDBFactory(), keyRange: IDBKeyRange };
  await (await open(source)).close();

  const seen = internalStoreTransactions();
  const db = await open(source);
  // Settled: the migration plugin's checks run after addCollections() resolves.
  await db.requestIdlePromise();
  await Promise.all(Object.values(db.collections).map((c) => c.getMigrationState().mustMigrate));
  expect(seen).toEqual([
    // Dexie's look at the stores as it opens the database.
    'readonly attachments,changes,docs',
    // The storage token (RxDB inserts it, and finds it there).
    'readwrite docs,attachments',
    // Every collection's document, current and earlier versions.
    'readonly docs',
  ]);
  await db.close();
});
