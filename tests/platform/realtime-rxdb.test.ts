import { createClient } from '@supabase/supabase-js';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createRxDatabase, type RxCollection, type RxDatabase } from 'rxdb';
import { replicateSupabase } from 'rxdb/plugins/replication-supabase';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { firstValueFrom, filter } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';

type Item = { id: string; name: string; qty?: number | null };

const itemSchema = {
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

describe("RxDB's Supabase replication over local Realtime", () => {
  let t: TestPlatform;
  let db: RxDatabase<{ items: RxCollection<Item> }>;
  const restReads: string[] = [];

  beforeAll(async () => {
    t = await startTestPlatform({ migrationsDir: 'tests/platform/sample-migrations' });
  });
  afterAll(async () => {
    await db?.close();
    await t.stop();
  });

  it('receives a server-side insert and update live, without another pull', async () => {
    await t.platform.ctx.db.query(
      `insert into rt_rx_items (id, name, qty) values ('seed', 'seeded', 1)`,
    );
    const client = createClient(t.url, t.anonKey, {
      realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
      global: {
        fetch: (input, init) => {
          const url = input instanceof Request ? input.url : String(input);
          if ((init?.method ?? 'GET') === 'GET' && url.includes('/rest/v1/rt_rx_items'))
            restReads.push(url);
          return fetch(input, init);
        },
      },
    });
    db = await createRxDatabase({
      name: 'realtime-rxdb',
      storage: getRxStorageDexie({ indexedDB: new IDBFactory(), IDBKeyRange }),
      multiInstance: false,
    });
    await db.addCollections({ items: { schema: itemSchema } });
    const replicationIdentifier = `rt_rx_items@${t.url}`;
    const rep = replicateSupabase<Item>({
      collection: db.items,
      client,
      tableName: 'rt_rx_items',
      replicationIdentifier,
      live: true,
      pull: {},
      push: {},
    });
    rep.error$.subscribe((e) => {
      throw e;
    });
    await rep.awaitInitialReplication();
    expect((await db.items.findOne('seed').exec())?.name).toBe('seeded');

    // The channel is joined and the resync it triggers has run: from here on, only Realtime
    // can bring a server change in.
    const channel = client.getChannels().find((c) => c.subTopic === replicationIdentifier);
    await new Promise<void>((resolve) => {
      const poll = () => (channel?.state === 'joined' ? resolve() : setTimeout(poll, 10));
      poll();
    });
    await rep.awaitInSync();
    const readsBefore = restReads.length;

    const arrived = firstValueFrom(db.items.findOne('live').$.pipe(filter((d) => d?.qty === 2)));
    await t.platform.ctx.db.query(
      `insert into rt_rx_items (id, name, qty) values ('live', 'from server', 1)`,
    );
    await t.platform.ctx.db.query(`update rt_rx_items set qty = 2 where id = 'live'`);
    const doc = await arrived;
    expect(doc?.toJSON()).toMatchObject({ id: 'live', name: 'from server', qty: 2 });
    expect(restReads.slice(readsBefore)).toEqual([]);
    await rep.cancel();
  });
});
