import { IDBFactory, IDBKeyRange, IDBObjectStore } from 'fake-indexeddb';
import type { RxDocumentData, RxStorageInstance } from 'rxdb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dexieStorage } from './database.ts';
import { servicosSchema, type ServicoDoc } from './schemas.ts';

type Doc = RxDocumentData<ServicoDoc>;

const open: RxStorageInstance<ServicoDoc, unknown, unknown>[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(open.splice(0).map((i) => i.close()));
});

async function store(): Promise<RxStorageInstance<ServicoDoc, unknown, unknown>> {
  const storage = dexieStorage({ factory: new IDBFactory(), keyRange: IDBKeyRange });
  const instance = await storage.createStorageInstance<ServicoDoc>({
    databaseName: 'sparse',
    collectionName: 'servicos',
    databaseInstanceToken: 'token',
    multiInstance: false,
    options: {},
    schema: { ...servicosSchema, additionalProperties: false } as never,
    devMode: false,
  });
  open.push(instance);
  return instance;
}

/** Ids that sort between each other, as uuids of one page spread over the whole key space. */
const id = (n: number) => `${String(n).padStart(4, '0')}-doc`;

function doc(n: number): Doc {
  return {
    id: id(n),
    nome: `serviço ${n}`,
    server_modified: null,
    _deleted: false,
    _rev: '1-a',
    _attachments: {},
    _meta: { lwt: 1000 + n },
  };
}

async function write(instance: RxStorageInstance<ServicoDoc, unknown, unknown>, ns: number[]) {
  const result = await instance.bulkWrite(
    ns.map((n) => ({ document: doc(n) })),
    'test',
  );
  expect(result.error).toEqual([]);
}

function found(docs: Doc[]): string[] {
  return docs.map((d) => d.id).sort();
}

describe('replica reads by id', () => {
  it('finds exactly the stored documents among many ids, asking IndexedDB only for those', async () => {
    const instance = await store();
    const stored = Array.from({ length: 30 }, (_, i) => i * 10);
    await write(instance, stored);
    // A page of 100 ids spread over the stored ones: 10 of them are there.
    const asked = Array.from({ length: 100 }, (_, i) => i * 3);
    const gets = vi.spyOn(IDBObjectStore.prototype, 'get');
    const docs = await instance.findDocumentsById(asked.map(id), true);
    expect(found(docs)).toEqual(asked.filter((n) => stored.includes(n)).map(id));
    expect(docs.find((d) => d.id === id(30))).toEqual(doc(30));
    expect(gets).toHaveBeenCalledTimes(10);
  });

  it('reads a page of new documents without a request per document', async () => {
    const instance = await store();
    await write(instance, [1, 2, 3]);
    const gets = vi.spyOn(IDBObjectStore.prototype, 'get');
    const page = Array.from({ length: 1000 }, (_, i) => 10 + i);
    expect(await instance.findDocumentsById(page.map(id), true)).toEqual([]);
    // Inserts: the write adds them without reading (first-sync-writes.test.ts).
    await write(instance, page);
    expect(gets).not.toHaveBeenCalled();
    expect(found(await instance.findDocumentsById(page.map(id), true))).toEqual(page.map(id));
  });

  it('a few ids, or ids in a range denser than the read, are read one by one, with the same answer', async () => {
    const instance = await store();
    const stored = Array.from({ length: 2000 }, (_, i) => i);
    await write(instance, stored);
    const few = [5, 7, 5000];
    expect(found(await instance.findDocumentsById(few.map(id), true))).toEqual([id(5), id(7)]);
    const dense = [0, 1999, ...Array.from({ length: 20 }, (_, i) => 3000 + i)];
    expect(found(await instance.findDocumentsById(dense.map(id), true))).toEqual([id(0), id(1999)]);
  });

  it('leaves out deleted documents unless asked for them', async () => {
    const instance = await store();
    await write(
      instance,
      Array.from({ length: 20 }, (_, i) => i),
    );
    const previous = doc(4);
    const result = await instance.bulkWrite(
      [{ previous, document: { ...previous, _deleted: true, _rev: '2-b' } }],
      'test',
    );
    expect(result.error).toEqual([]);
    const ids = Array.from({ length: 20 }, (_, i) => id(i));
    expect(found(await instance.findDocumentsById(ids, false))).not.toContain(id(4));
    expect(found(await instance.findDocumentsById(ids, true))).toContain(id(4));
  });
});
