/**
 * Edits what RxDB stored in a device's IndexedDB, below RxDB: for the states a closed page or
 * an earlier build leaves on a device, which the engine itself never writes.
 * (docs/testing-sync.md §6)
 */

/** What `change` returns for a stored document: a replacement, `null` to delete it, or nothing. */
type StoredChange = (doc: Record<string, unknown>) => Record<string, unknown> | null | undefined;

function openDatabase(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = factory.open(name);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error(`could not open ${name}`));
  });
}

function editDocs(db: IDBDatabase, change: StoredChange): Promise<number> {
  return new Promise((resolve, reject) => {
    let edited = 0;
    const tx = db.transaction('docs', 'readwrite');
    const cursor = tx.objectStore('docs').openCursor();
    cursor.onsuccess = () => {
      const c = cursor.result;
      if (!c) return;
      const next = change(c.value as Record<string, unknown>);
      if (next === null) c.delete();
      else if (next) c.update(next);
      if (next !== undefined) edited += 1;
      c.continue();
    };
    tx.oncomplete = () => resolve(edited);
    tx.onerror = () => reject(tx.error ?? new Error(`could not edit ${db.name}`));
  });
}

/**
 * Passes every document RxDB's Dexie storage keeps in the databases whose name contains
 * `databaseName` (a collection, `rx-replication-meta-`, `_rxdb_internal`) to `change`, and
 * returns how many it replaced or deleted. Run it while the device's engine is stopped.
 */
export async function editStoredDocs(
  factory: IDBFactory,
  databaseName: string,
  change: StoredChange,
): Promise<number> {
  let edited = 0;
  for (const { name } of await factory.databases()) {
    if (!name?.includes(databaseName)) continue;
    const db = await openDatabase(factory, name);
    if (db.objectStoreNames.contains('docs')) edited += await editDocs(db, change);
    db.close();
  }
  return edited;
}
