import { Dexie } from 'dexie';
import { IDBFactory, IDBIndex, IDBKeyRange, IDBObjectStore } from 'fake-indexeddb';
import {
  createRxDatabase,
  fillWithDefaultSettings,
  getChangedDocumentsSince,
  normalizeMangoQuery,
  prepareQuery,
  type RxDocumentData,
  type RxJsonSchema,
  type RxStorageInstance,
} from 'rxdb';
import { afterEach, describe, expect, it } from 'vitest';
import { dexieStorage } from './database.ts';
import {
  agendamentosSchema,
  medicosSchema,
  servicosSchema,
  type AgendamentoDoc,
  type ServicoDoc,
} from './schemas.ts';

/**
 * RxDB's Dexie storage as patched (patches/rxdb+17.6.0.patch): a docs store no longer has an
 * index on `_meta.lwt` alone, and cleanup() reads the `[_meta.lwt+id]` index instead; a
 * collection with its own indexes has no `[_deleted+id]` index either; and the store of a
 * collection no role pushes has only the indexes its schema declares (`neverPushed`), its
 * queries planned over a missing index reading the primary key instead, and a migration away
 * from its schema version reading it in primary-key order, each document once.
 */

type Doc = RxDocumentData<ServicoDoc>;
type Instance = RxStorageInstance<ServicoDoc, unknown, unknown>;

const open: RxStorageInstance<never, unknown, unknown>[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((i) => i.close()));
});

async function storeOf<T>(
  factory: IDBFactory,
  databaseName: string,
  collectionName: string,
  schema: RxJsonSchema<T>,
): Promise<RxStorageInstance<T, unknown, unknown>> {
  const storage = dexieStorage({ factory, keyRange: IDBKeyRange });
  const created = await storage.createStorageInstance<T>({
    databaseName,
    collectionName,
    databaseInstanceToken: 'token',
    multiInstance: false,
    options: {},
    schema: fillWithDefaultSettings({ ...schema }),
    devMode: false,
  });
  open.push(created as unknown as RxStorageInstance<never, unknown, unknown>);
  return created;
}

function instance(factory: IDBFactory, databaseName: string): Promise<Instance> {
  return storeOf(factory, databaseName, 'servicos', servicosSchema);
}

type Appointment = RxDocumentData<AgendamentoDoc>;

function appointment(id: string, start: string, deleted = false): Appointment {
  return {
    id,
    medico_id: 'm1',
    horario_inicio: start,
    _deleted: deleted,
    _rev: '1-a',
    _attachments: {},
    _meta: { lwt: 1000 },
  } as unknown as Appointment;
}

/**
 * The ids a query over the appointments' store finds, in its order, asked as RxQuery asks
 * (non-deleted only); RxDB's planner picks the index.
 */
async function appointmentIds(
  store: RxStorageInstance<AgendamentoDoc, unknown, unknown>,
  selector: Record<string, unknown>,
  limit?: number,
): Promise<string[]> {
  const schema = fillWithDefaultSettings({ ...agendamentosSchema });
  const query = prepareQuery(
    schema,
    normalizeMangoQuery<Appointment>(schema, {
      selector: { ...selector, _deleted: { $eq: false } },
      sort: [{ horario_inicio: 'asc' }],
      ...(limit === undefined ? {} : { limit }),
    }),
  );
  const { documents } = await store.query(query);
  return documents.map((d) => d.id);
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

/** A docs store as RxDB's Dexie storage declared it before an index was dropped, with one row. */
async function storeDeclaredBefore(
  factory: IDBFactory,
  name: string,
  docs: string,
  row: Record<string, unknown>,
): Promise<void> {
  const before = new Dexie(name, { indexedDB: factory, IDBKeyRange });
  before.version(1).stores({ docs, changes: '++sequence, id', attachments: 'id' });
  await before.table('docs').put(row);
  before.close();
}

const READS = [
  [IDBObjectStore.prototype, 'getAll'],
  [IDBObjectStore.prototype, 'openCursor'],
  [IDBIndex.prototype, 'getAll'],
  [IDBIndex.prototype, 'openCursor'],
] as const;
const readOriginals = READS.map(([proto, method]) =>
  Object.getOwnPropertyDescriptor(proto, method)!,
);

function restoreReads(): void {
  READS.forEach(([proto, method], i) => Object.defineProperty(proto, method, readOriginals[i]!));
}
afterEach(restoreReads);

/** How many records the `docs` store of IndexedDB database `name` hands out from now on. */
function recordsReadFrom(name: string): () => number {
  let records = 0;
  READS.forEach(([proto, method], i) => {
    const original = readOriginals[i]!.value as (...args: unknown[]) => IDBRequest;
    proto[method] = function (this: IDBObjectStore | IDBIndex, ...args: unknown[]) {
      const request = original.apply(this, args);
      const store = 'objectStore' in this ? this.objectStore : this;
      if (store.name === 'docs' && store.transaction.db.name === name) {
        request.addEventListener('success', () => {
          const result: unknown = request.result;
          if (Array.isArray(result)) records += result.length;
          else if (result) records += 1;
        });
      }
      return request;
    } as never;
  });
  return () => records;
}

/** Migration strategies from version 1 to `version`, each doing `strategy`. */
function strategiesUpTo(version: number, strategy: (doc: unknown) => unknown) {
  return Object.fromEntries(Array.from({ length: version }, (_, i) => [i + 1, strategy]));
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
  it('of a collection no role pushes has no index at all, and cleanup() still removes old deleted documents', async () => {
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
    expect(await indexNames(factory, 'rxdb-dexie-fresh--0--servicos')).toEqual([]);
  });

  it('opens a store created with the _meta.lwt index as it is: its documents are read and written', async () => {
    const factory = new IDBFactory();
    const name = 'rxdb-dexie-before--0--servicos';
    await storeDeclaredBefore(factory, name, 'id, [_deleted+id], [_meta.lwt+id], _meta.lwt', {
      ...doc('old', 1000),
      _deleted: '0',
    });

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

/** The services a query finds, in its order, asked as RxQuery asks (non-deleted only). */
async function serviceIds(
  store: Instance,
  selector: Record<string, unknown>,
  options: { limit?: number; sort?: 'asc' | 'desc' } = {},
): Promise<{ ids: string[]; count: number }> {
  const schema = fillWithDefaultSettings({ ...servicosSchema });
  const query = prepareQuery(
    schema,
    normalizeMangoQuery<Doc>(schema, {
      selector: { ...selector, _deleted: { $eq: false } },
      ...(options.sort ? { sort: [{ id: options.sort }] } : {}),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
    }),
  );
  const [{ documents }, { count }] = await Promise.all([store.query(query), store.count(query)]);
  return { ids: documents.map((d) => d.id), count };
}

describe('the Dexie store of a collection no role pushes, without indexes', () => {
  it('answers queries from the primary key as its [_deleted+id] index did', async () => {
    const store = await instance(new IDBFactory(), 'scan');
    const write = await store.bulkWrite(
      ['c', 'a', 'gone', 'b'].map((id) => ({ document: doc(id, 1000, id === 'gone') })),
      'test',
    );
    expect(write.error).toEqual([]);
    expect(await serviceIds(store, {})).toEqual({ ids: ['a', 'b', 'c'], count: 3 });
    expect(await serviceIds(store, { id: 'b' })).toEqual({ ids: ['b'], count: 1 });
    expect(await serviceIds(store, { id: 'gone' })).toEqual({ ids: [], count: 0 });
    expect(await serviceIds(store, { id: { $gt: 'a' } }, { limit: 1 })).toEqual({
      ids: ['b'],
      count: 2,
    });
    expect(await serviceIds(store, { nome: 'serviço c' })).toEqual({ ids: ['c'], count: 1 });
    expect((await serviceIds(store, {}, { sort: 'desc', limit: 2 })).ids).toEqual(['c', 'b']);
  });

  it('lists its documents since a checkpoint in primary-key order, as a migration away from it reads them', async () => {
    const store = await instance(new IDBFactory(), 'changes');
    const write = await store.bulkWrite(
      [doc('b', 2000), doc('a', 2000), doc('c', 1000), doc('d', 3000, true)].map((document) => ({
        document,
      })),
      'test',
    );
    expect(write.error).toEqual([]);
    const first = await getChangedDocumentsSince(store, 2, undefined);
    expect(first.documents.map((d) => d.id)).toEqual(['a', 'b']);
    const rest = await getChangedDocumentsSince(store, 10, first.checkpoint);
    expect(rest.documents.map((d) => d.id)).toEqual(['c', 'd']);
    const done = await getChangedDocumentsSince(store, 10, rest.checkpoint);
    expect(done).toEqual({ documents: [], checkpoint: rest.checkpoint as unknown });
    // A checkpoint of RxDB's [_meta.lwt+id] order (a migration begun before) starts again.
    const earlier = await getChangedDocumentsSince(store, 10, { id: 'a', lwt: 2000 });
    expect(earlier.documents.map((d) => d.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('is read once per document by a migration away from its schema version', async () => {
    const factory = new IDBFactory();
    const storage = dexieStorage({ factory, keyRange: IDBKeyRange });
    const version = (v: number) => ({ ...servicosSchema, version: v });
    const keep = (d: unknown) => d;
    const before = await createRxDatabase({ name: 'bump', storage, multiInstance: false });
    const { servicos } = await before.addCollections({
      servicos: {
        schema: version(servicosSchema.version),
        migrationStrategies: strategiesUpTo(servicosSchema.version, keep),
      },
    });
    const ids = Array.from(
      { length: 1000 },
      (_, i) => `${String((i * 7919) % 10007).padStart(5, '0')}`,
    );
    await servicos.bulkInsert(
      ids.map((id) => ({ id, nome: `serviço ${id}`, server_modified: null })),
    );
    await before.close();

    const read = recordsReadFrom(`rxdb-dexie-bump--${servicosSchema.version}--servicos`);
    const after = await createRxDatabase({ name: 'bump', storage, multiInstance: false });
    const bumped = await after.addCollections({
      servicos: {
        schema: version(servicosSchema.version + 1),
        migrationStrategies: strategiesUpTo(servicosSchema.version + 1, keep),
      },
    });
    expect(await bumped.servicos.count().exec()).toBe(1000);
    // The migration counts the documents once (a scan, without an index), then copies them in
    // batches of 200. Sorted by _meta.lwt without its index, every batch read the whole store:
    // 102,000 records.
    expect(read()).toBe(2 * 1000);
    await after.close();
  });

  it('gains [_deleted+id] and [_meta.lwt+id] when its collection comes to be pushed, its documents kept', async () => {
    const factory = new IDBFactory();
    const name = 'rxdb-dexie-gain--2--medicos';
    // As created while no role pushed it: the primary key only.
    await storeDeclaredBefore(factory, name, 'id', { ...doc('old', 1000), _deleted: '0' });

    const store = await storeOf(factory, 'gain', 'medicos', medicosSchema);
    expect((await store.findDocumentsById(['old'], false)).map((d) => d.id)).toEqual(['old']);
    expect(await indexNames(factory, name)).toEqual(['[_deleted+id]', '[_meta.lwt+id]']);
    const changed = await getChangedDocumentsSince(store, 10, undefined);
    expect(changed.documents.map((d) => d.id)).toEqual(['old']);
  });

  it('of a collection some role pushes keeps [_deleted+id] and [_meta.lwt+id]', async () => {
    const factory = new IDBFactory();
    await storeOf(factory, 'pushed', 'medicos', medicosSchema);
    expect(await indexNames(factory, 'rxdb-dexie-pushed--2--medicos')).toEqual([
      '[_deleted+id]',
      '[_meta.lwt+id]',
    ]);
  });
});

describe('the Dexie store of a collection with its own indexes', () => {
  it('has no [_deleted+id] index, and its queries still find non-deleted documents in order', async () => {
    const factory = new IDBFactory();
    const store = await storeOf(factory, 'own', 'agendamentos', agendamentosSchema);
    const write = await store.bulkWrite(
      [
        { document: appointment('b', '2026-11-24T12:00:00Z') },
        { document: appointment('a', '2026-11-25T12:00:00Z') },
        { document: appointment('gone', '2026-11-23T12:00:00Z', true) },
      ],
      'test',
    );
    expect(write.error).toEqual([]);
    expect(await appointmentIds(store, {})).toEqual(['b', 'a']);
    expect(
      await appointmentIds(store, { horario_inicio: { $gte: '2026-11-25T00:00:00Z' } }),
    ).toEqual(['a']);
    expect(await indexNames(factory, 'rxdb-dexie-own--2--agendamentos')).toEqual([
      '[_deleted+horario_inicio+id]',
    ]);
  });

  it('answers a query its index covers from one read of the range, and one it does not by the cursor, limits included', async () => {
    const factory = new IDBFactory();
    const store = await storeOf(factory, 'reads', 'agendamentos', agendamentosSchema);
    const write = await store.bulkWrite(
      [
        { document: appointment('c', '2026-11-26T12:00:00Z') },
        { document: appointment('b', '2026-11-24T12:00:00Z') },
        { document: appointment('a', '2026-11-25T12:00:00Z') },
        { document: { ...appointment('other', '2026-11-24T13:00:00Z'), medico_id: 'm2' } },
      ],
      'test',
    );
    expect(write.error).toEqual([]);
    const from = { horario_inicio: { $gte: '2026-11-25T00:00:00Z' } };
    // The index [_deleted+horario_inicio+id] answers these selectors whole: getAll().
    expect(await appointmentIds(store, from)).toEqual(['a', 'c']);
    expect(await appointmentIds(store, from, 1)).toEqual(['a']);
    // medico_id is not in that index: the cursor, with a matcher, stops at the limit.
    expect(await appointmentIds(store, { medico_id: 'm1' })).toEqual(['b', 'a', 'c']);
    expect(await appointmentIds(store, { medico_id: 'm1' }, 2)).toEqual(['b', 'a']);
  });

  it('opens a store created with the [_deleted+id] index as it is: its documents are read and written', async () => {
    const factory = new IDBFactory();
    const name = 'rxdb-dexie-older--2--agendamentos';
    await storeDeclaredBefore(
      factory,
      name,
      'id, [_deleted+id], [_deleted+horario_inicio+id], [_meta.lwt+id]',
      { ...appointment('old', '2026-11-24T12:00:00Z'), _deleted: '0' },
    );

    const store = await storeOf(factory, 'older', 'agendamentos', agendamentosSchema);
    const write = await store.bulkWrite(
      [{ document: appointment('new', '2026-11-23T12:00:00Z') }],
      'test',
    );
    expect(write.error).toEqual([]);
    expect(await appointmentIds(store, {})).toEqual(['new', 'old']);
    expect(await indexNames(factory, name)).toContain('[_deleted+id]');
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
