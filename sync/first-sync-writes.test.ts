import { IDBFactory, IDBKeyRange, IDBObjectStore } from 'fake-indexeddb';
import {
  createRxDatabase,
  fillWithDefaultSettings,
  type RxChangeEventBulk,
  type RxCollection,
  type RxDatabase,
  type RxDocumentData,
  type RxStorageInstance,
} from 'rxdb';
import { replicateRxCollection } from 'rxdb/plugins/replication';
import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { dexieStorage } from './database.ts';
import { servicosSchema, type ServicoDoc } from './schemas.ts';

/**
 * What a first sync asks of IndexedDB (patches/rxdb+17.6.0.patch): the Dexie storage adds a
 * document written without a previous state (an insert) instead of reading its id first, and
 * IndexedDB's refusal of a stored id is the insert's conflict; the pull of a collection no
 * role pushes writes every pulled document as an insert, without reading the collection, and
 * writes again, against the stored document, only those it already had. In Chromium every
 * request crosses to the browser process, and the page's reads listed nearly every stored key
 * (its ids are spread over the key space), a cost that grew with the replica.
 */

type Doc = RxDocumentData<ServicoDoc>;
type Instance = RxStorageInstance<ServicoDoc, unknown, unknown>;

const METHODS = ['put', 'add', 'get', 'getAll', 'getAllKeys', 'count', 'openCursor'] as const;
const originals = METHODS.map(
  (m) => [m, Object.getOwnPropertyDescriptor(IDBObjectStore.prototype, m)!] as const,
);
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const [method, descriptor] of originals) {
    Object.defineProperty(IDBObjectStore.prototype, method, descriptor);
  }
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** The requests made from now on to the `docs` store of the IndexedDB databases `ofDb` picks. */
function docsStoreRequests(ofDb: (name: string) => boolean): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [method, descriptor] of originals) {
    const original = descriptor.value as (...args: unknown[]) => unknown;
    IDBObjectStore.prototype[method] = function (this: IDBObjectStore, ...args: unknown[]) {
      if (this.name === 'docs' && ofDb(this.transaction.db.name)) {
        counts[method] = (counts[method] ?? 0) + 1;
      }
      return original.apply(this, args);
    } as never;
  }
  return counts;
}

function doc(n: number, nome = `serviço ${n}`): Doc {
  return {
    // Ids spread over the key space, as a page of uuids is.
    id: `${String((n * 7919) % 10007).padStart(5, '0')}-${n}`,
    nome,
    server_modified: null,
    _deleted: false,
    _rev: '1-a',
    _attachments: {},
    _meta: { lwt: 1000 + n },
  };
}

async function store(): Promise<Instance> {
  const storage = dexieStorage({ factory: new IDBFactory(), keyRange: IDBKeyRange });
  const instance = await storage.createStorageInstance<ServicoDoc>({
    databaseName: 'first-sync',
    collectionName: 'servicos',
    databaseInstanceToken: 'token',
    multiInstance: false,
    options: {},
    schema: fillWithDefaultSettings({ ...servicosSchema }),
    devMode: false,
  });
  cleanups.push(() => instance.close());
  return instance;
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('the Dexie storage writing new documents', () => {
  it('adds a page of inserts with one request each and reads nothing', async () => {
    const instance = await store();
    expect(
      (
        await instance.bulkWrite(
          range(0, 300).map((n) => ({ document: doc(n) })),
          'test',
        )
      ).error,
    ).toEqual([]);

    const requests = docsStoreRequests(() => true);
    const page = range(300, 1300);
    const result = await instance.bulkWrite(
      page.map((n) => ({ document: doc(n) })),
      'test',
    );
    expect(result.error).toEqual([]);
    expect(requests).toEqual({ add: 1000 });
    const stored = await instance.findDocumentsById(
      page.map((n) => doc(n).id),
      true,
    );
    expect(stored).toHaveLength(1000);
  });

  it('refuses an insert of a stored id as a conflict with the stored document, and writes the rest', async () => {
    const instance = await store();
    await instance.bulkWrite(
      [1, 2, 3].map((n) => ({ document: doc(n) })),
      'test',
    );
    const events = firstValueFrom(instance.changeStream()) as Promise<RxChangeEventBulk<Doc>>;

    const result = await instance.bulkWrite(
      [
        { document: { ...doc(4), _meta: { lwt: 2000 } } },
        { document: { ...doc(2, 'outro nome'), _meta: { lwt: 2000 } } },
        { document: { ...doc(5), _meta: { lwt: 2000 } } },
      ],
      'test',
    );
    expect(result.error).toEqual([
      expect.objectContaining({ status: 409, documentId: doc(2).id, documentInDb: doc(2) }),
    ]);
    const bulk = await events;
    expect(bulk.events.map((e) => e.documentId)).toEqual([doc(4).id, doc(5).id]);
    expect(bulk.checkpoint).toEqual({ id: doc(5).id, lwt: 2000 });
    const stored = await instance.findDocumentsById(
      [2, 4, 5].map((n) => doc(n).id),
      true,
    );
    expect(stored.map((d) => d.nome).sort()).toEqual(['serviço 2', 'serviço 4', 'serviço 5']);
  });

  it('still reads the documents it updates, and finds their conflicts', async () => {
    const instance = await store();
    await instance.bulkWrite(
      [1, 2].map((n) => ({ document: doc(n) })),
      'test',
    );
    const requests = docsStoreRequests(() => true);
    const result = await instance.bulkWrite(
      [
        { previous: doc(1), document: { ...doc(1, 'novo'), _rev: '2-b' } },
        { previous: { ...doc(2), _rev: '1-z' }, document: { ...doc(2, 'novo'), _rev: '2-b' } },
        { document: doc(3) },
      ],
      'test',
    );
    expect(result.error).toEqual([
      expect.objectContaining({ status: 409, documentId: doc(2).id, documentInDb: doc(2) }),
    ]);
    // Two ids read one by one (sparse-reads.ts reads a few keys as Dexie does), one put, one add.
    expect(requests).toEqual({ get: 2, put: 1, add: 1 });
  });
});

describe('the pull of a collection no role pushes', () => {
  async function replica(): Promise<RxDatabase<{ servicos: RxCollection<ServicoDoc> }>> {
    const db = await createRxDatabase<{ servicos: RxCollection<ServicoDoc> }>({
      name: 'first-sync-pull',
      storage: dexieStorage({ factory: new IDBFactory(), keyRange: IDBKeyRange }),
      multiInstance: false,
    });
    cleanups.push(() => db.close());
    await db.addCollections({ servicos: { schema: servicosSchema } });
    return db;
  }

  /** Pulls `rows` from the start, in pages of 100, under a fresh replication identifier. */
  async function pull(
    db: RxDatabase<{ servicos: RxCollection<ServicoDoc> }>,
    identifier: string,
    rows: ServicoDoc[],
  ): Promise<void> {
    const replication = replicateRxCollection<ServicoDoc, { n: number }>({
      collection: db.collections.servicos,
      replicationIdentifier: identifier,
      live: false,
      pull: {
        batchSize: 100,
        handler: (checkpoint) => {
          const from = checkpoint?.n ?? 0;
          const documents = rows.slice(from, from + 100).map((r) => ({ ...r, _deleted: false }));
          return Promise.resolve({ documents, checkpoint: { n: from + documents.length } });
        },
      },
    });
    const errors: unknown[] = [];
    replication.error$.subscribe((e) => errors.push(e));
    await replication.awaitInitialReplication();
    await replication.cancel();
    expect(errors).toEqual([]);
  }

  const row = (n: number, nome = `serviço ${n}`): ServicoDoc => {
    const { id } = doc(n);
    return { id, nome, server_modified: null };
  };

  it('writes a first sync with one add per document and no read of the collection', async () => {
    const db = await replica();
    const requests = docsStoreRequests((name) => name.endsWith('--servicos'));
    await pull(
      db,
      'first',
      range(0, 250).map((n) => row(n)),
    );
    expect(requests).toEqual({ add: 250 });
    expect(await db.collections.servicos.count().exec()).toBe(250);
  });

  it('pulling known documents again writes only those the server changed, over the stored ones', async () => {
    const db = await replica();
    await pull(
      db,
      'first',
      range(0, 250).map((n) => row(n)),
    );
    const changed = new Set([3, 120, 249]);
    const again = range(0, 260).map((n) => row(n, changed.has(n) ? `mudou ${n}` : `serviço ${n}`));

    const requests = docsStoreRequests((name) => name.endsWith('--servicos'));
    await pull(db, 'again', again);
    const docs = await db.collections.servicos.find().exec();
    expect(docs).toHaveLength(260);
    for (const d of docs) {
      const n = range(0, 260).find((i) => doc(i).id === d.id)!;
      expect(d.nome).toBe(changed.has(n) ? `mudou ${n}` : `serviço ${n}`);
    }
    // Every page is added (10 new ids succeed), the refused stored ones are read, and only the
    // three changed documents are written again.
    expect(requests.add).toBe(260);
    expect(requests.put).toBe(3);
  });
});
