import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { fillWithDefaultSettings, type RxDocumentData, type RxStorageInstance } from 'rxdb';
import { afterEach, describe, expect, it } from 'vitest';
import { dexieStorage } from './database.ts';
import { servicosSchema, type ServicoDoc } from './schemas.ts';

/**
 * RxDB's Dexie storage as patched (patches/rxdb+17.6.0.patch): a docs store no longer has an
 * index on `_meta.lwt` alone, and cleanup() reads the `[_meta.lwt+id]` index instead.
 */

type Doc = RxDocumentData<ServicoDoc>;
type Instance = RxStorageInstance<ServicoDoc, unknown, unknown>;

const open: Instance[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((i) => i.close()));
});

async function instance(factory: IDBFactory, databaseName: string): Promise<Instance> {
  const storage = dexieStorage({ factory, keyRange: IDBKeyRange });
  const created = await storage.createStorageInstance<ServicoDoc>({
    databaseName,
    collectionName: 'servicos',
    databaseInstanceToken: 'token',
    multiInstance: false,
    options: {},
    schema: fillWithDefaultSettings({ ...servicosSchema }),
    devMode: false,
  });
  open.push(created);
  return created;
}

function doc(id: string, lwt: number, deleted = false): Doc {
  return {
    id,
    nome: `serviço ${id}`,
    server_modified: null,
    _deleted: deleted,
    _rev: '1-a',
    _attachments: {},
    _meta: { lwt },
  };
}

function indexNames(factory: IDBFactory, name: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name);
    request.onsuccess = () => {
      const db = request.result;
      const names = [...db.transaction('docs').objectStore('docs').indexNames];
      db.close();
      resolve(names.sort());
    };
    request.onerror = () => reject(request.error ?? new Error('open failed'));
  });
}

describe("the replica's Dexie docs store", () => {
  it('has no index on _meta.lwt alone, and cleanup() still removes old deleted documents', async () => {
    const factory = new IDBFactory();
    const store = await instance(factory, 'fresh');
    const write = await store.bulkWrite(
      [{ document: doc('a', 1000) }, { document: doc('b', 1000) }],
      'test',
    );
    expect(write.error).toEqual([]);
    const [a] = await store.findDocumentsById(['a'], false);
    await store.bulkWrite(
      [{ previous: a, document: { ...doc('a', 2000, true), _rev: '2-a' } }],
      'test',
    );
    await store.cleanup(0);
    expect((await store.findDocumentsById(['a', 'b'], true)).map((d) => d.id)).toEqual(['b']);
    expect(await indexNames(factory, 'rxdb-dexie-fresh--0--servicos')).toEqual([
      '[_deleted+id]',
      '[_meta.lwt+id]',
    ]);
  });

  it('opens a store created with the _meta.lwt index as it is: its documents are read and written', async () => {
    const factory = new IDBFactory();
    const name = 'rxdb-dexie-before--0--servicos';
    const before = new Dexie(name, { indexedDB: factory, IDBKeyRange });
    // The stores RxDB's Dexie storage declared before the index was dropped.
    before.version(1).stores({
      docs: 'id, [_deleted+id], [_meta.lwt+id], _meta.lwt',
      changes: '++sequence, id',
      attachments: 'id',
    });
    await before.table('docs').put({ ...doc('old', 1000), _deleted: '0' });
    before.close();

    const store = await instance(factory, 'before');
    expect((await store.findDocumentsById(['old'], false)).map((d) => d.nome)).toEqual([
      'serviço old',
    ]);
    const write = await store.bulkWrite([{ document: doc('new', 3000) }], 'test');
    expect(write.error).toEqual([]);
    expect((await store.findDocumentsById(['old', 'new'], false)).map((d) => d.id).sort()).toEqual([
      'new',
      'old',
    ]);
    expect(await indexNames(factory, name)).toContain('_meta.lwt');
  });
});

describe("the replica's documents in Dexie", () => {
  it('keep their keys as they were; a key starting with | is still stored renamed and read back', async () => {
    const store = await instance(new IDBFactory(), 'keys');
    const plain = { ...doc('plain', 1000), nested: { a: 1, list: [{ b: 2 }] } };
    const piped = { ...doc('piped', 1000), nested: { '|c': 3 } };
    const write = await store.bulkWrite([{ document: plain }, { document: piped }], 'test');
    expect(write.error).toEqual([]);
    const read = await store.findDocumentsById(['plain', 'piped'], false);
    const byId = new Map(read.map((d) => [d.id, d as Doc & { nested: unknown }]));
    expect(byId.get('plain')?.nested).toEqual({ a: 1, list: [{ b: 2 }] });
    expect(byId.get('plain')?._deleted).toBe(false);
    expect(byId.get('piped')?.nested).toEqual({ '|c': 3 });
  });
});
