import type { RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import { Inbox, channelName, clientAs, mintUser, subscribed } from './realtime-support.ts';

type Row = Record<string, unknown>;
type Change = RealtimePostgresChangesPayload<Row>;

describe('realtime postgres_changes', () => {
  let t: TestPlatform;
  const sql = (text: string, params: unknown[] = []) => t.platform.ctx.db.query(text, params);

  beforeAll(async () => {
    t = await startTestPlatform({ migrationsDir: 'tests/platform/sample-migrations' });
  });
  afterAll(() => t.stop());

  it('delivers INSERT, UPDATE and DELETE with the real server payload shape and column types', async () => {
    const client = t.client(t.serviceRoleKey);
    const inbox = new Inbox<Change>();
    const channel = client
      .channel(channelName('items'))
      .on('postgres_changes', { event: '*', schema: 'public', table: 'rt_items' }, inbox.push);
    await subscribed(channel);

    const { rows } = await sql(
      `insert into rt_items (label, qty, due_at) values ('milk', 2, '2026-03-01 12:00:00.123456+00') returning id::int`,
    );
    const id = rows[0]!.id;
    const inserted = await inbox.next((c) => c.eventType === 'INSERT', 'INSERT');
    expect(inserted).toMatchObject({
      schema: 'public',
      table: 'rt_items',
      eventType: 'INSERT',
      errors: null,
      new: { id, label: 'milk', qty: 2, status: 'new', due_at: '2026-03-01T12:00:00.123456+00:00' },
      old: {},
    });
    expect(inserted.commit_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    await sql(`update rt_items set qty = 3 where id = $1`, [id]);
    const updated = await inbox.next((c) => c.eventType === 'UPDATE', 'UPDATE');
    // REPLICA IDENTITY FULL: the old row is complete.
    expect(updated).toMatchObject({ new: { id, qty: 3 }, old: { id, qty: 2, label: 'milk' } });

    await sql(`delete from rt_items where id = $1`, [id]);
    const deleted = await inbox.next((c) => c.eventType === 'DELETE', 'DELETE');
    expect(deleted).toMatchObject({ new: {}, old: { id, label: 'milk', qty: 3 } });
    await client.removeAllChannels();
  });
});
