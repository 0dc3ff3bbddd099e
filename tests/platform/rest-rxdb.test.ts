import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createRxDatabase, type RxCollection, type RxDatabase } from 'rxdb/plugins/core';
import { replicateSupabase } from 'rxdb/plugins/replication-supabase';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';

/**
 * RxDB's Supabase replication (docs/replication.md §2.3) pulling and pushing the sample `items`
 * table through /rest/v1: checkpointed pulls with `or=("_modified".gt…,and(…))`, inserts,
 * conditional PATCHes with return=representation, and the server winning a conflict.
 */
type Item = { id: string; name: string; qty: number | null };

const schema = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 100 },
    name: { type: 'string' },
    qty: { type: ['integer', 'null'] },
  },
  required: ['id', 'name'],
} as const;

let t: TestPlatform;
let db: RxDatabase;
let items: RxCollection<Item>;

beforeAll(async () => {
  t = await startTestPlatform({ migrationsDir: 'tests/platform/sample-migrations' });
  db = await createRxDatabase({
    name: 'rest-rxdb',
    storage: getRxStorageDexie({ indexedDB: new IDBFactory(), IDBKeyRange }),
    multiInstance: false,
  });
  const collections = await db.addCollections({ items: { schema } });
  items = collections.items as RxCollection<Item>;
});
afterAll(async () => {
  await db.close();
  await t.stop();
});

/** One non-live replication run: pull since the stored checkpoint, then push local changes. */
async function syncOnce() {
  const rep = replicateSupabase<Item>({
    collection: items,
    client: t.client(),
    tableName: 'items',
    replicationIdentifier: `items@${t.url}`,
    live: false,
    pull: { batchSize: 2 },
    push: { batchSize: 10 },
  });
  const errors: unknown[] = [];
  rep.error$.subscribe((e) => errors.push(e));
  await rep.awaitInitialReplication();
  await rep.cancel();
  expect(errors).toEqual([]);
}

async function serverItems() {
  const { data, error } = await t.admin.from('items').select('id, name, qty, _deleted').order('id');
  expect(error).toBeNull();
  return data;
}

async function localItems() {
  const docs = await items.find({ sort: [{ id: 'asc' }] }).exec();
  return docs.map((d) => ({ id: d.id, name: d.name, qty: d.qty }));
}

describe('RxDB Supabase replication over /rest/v1', () => {
  it('pulls server rows in checkpointed batches and pushes local inserts', async () => {
    const seeded = await t.admin.from('items').insert([
      { id: 'a', name: 'server-a', qty: 1 },
      { id: 'b', name: 'server-b', qty: null },
      { id: 'c', name: 'server-c', qty: 3 },
    ]);
    expect(seeded.error).toBeNull();
    await items.insert({ id: 'z', name: 'local-z', qty: 9 });

    await syncOnce();

    expect(await localItems()).toEqual([
      { id: 'a', name: 'server-a', qty: 1 },
      { id: 'b', name: 'server-b', qty: null },
      { id: 'c', name: 'server-c', qty: 3 },
      { id: 'z', name: 'local-z', qty: 9 },
    ]);
    expect(await serverItems()).toContainEqual({
      id: 'z',
      name: 'local-z',
      qty: 9,
      _deleted: false,
    });
  });

  it('pushes updates and soft deletes as conditional PATCHes and pulls only newer rows', async () => {
    await (await items.findOne('a').exec())?.incrementalPatch({ qty: 2 });
    await (await items.findOne('b').exec())?.remove();
    await t.admin.from('items').insert({ id: 'd', name: 'server-d', qty: 4 });

    await syncOnce();

    expect(await serverItems()).toEqual([
      { id: 'a', name: 'server-a', qty: 2, _deleted: false },
      { id: 'b', name: 'server-b', qty: null, _deleted: true },
      { id: 'c', name: 'server-c', qty: 3, _deleted: false },
      { id: 'd', name: 'server-d', qty: 4, _deleted: false },
      { id: 'z', name: 'local-z', qty: 9, _deleted: false },
    ]);
    expect((await localItems()).map((i) => i.id)).toEqual(['a', 'c', 'd', 'z']);
  });

  it('lets the server win when the row changed there first', async () => {
    await t.admin.from('items').update({ name: 'server-changed' }).eq('id', 'c');
    await (await items.findOne('c').exec())?.incrementalPatch({ qty: 30 });

    await syncOnce();

    expect((await serverItems())?.find((i) => i.id === 'c')).toEqual({
      id: 'c',
      name: 'server-changed',
      qty: 3,
      _deleted: false,
    });
    expect((await localItems()).find((i) => i.id === 'c')).toEqual({
      id: 'c',
      name: 'server-changed',
      qty: 3,
    });
  });
});
