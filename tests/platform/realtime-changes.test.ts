import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';
import { Inbox, channelName, subscribed, type Change } from './realtime-support.ts';

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

  it('sends record values as to_jsonb gives them', async () => {
    const inbox = new Inbox<Change>();
    const channel = t.admin
      .channel(channelName('notes-admin'))
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'rt_notes' }, inbox.push);
    await subscribed(channel);
    await sql(
      `insert into rt_notes (owner_id, body, tags, meta, price, internal_note)
       values (gen_random_uuid(), 'typed', '{a,b}', '{"x": 1, "y": [true]}', 12.5, 'staff only')`,
    );
    const change = await inbox.next();
    expect(change.new).toMatchObject({
      body: 'typed',
      is_public: false,
      tags: ['a', 'b'],
      meta: { x: 1, y: [true] },
      price: 12.5,
      internal_note: 'staff only',
    });
    expect(typeof change.new.id).toBe('number');
    await t.admin.removeChannel(channel);
  });

  it('keeps old_record to the primary key under the default replica identity', async () => {
    const inbox = new Inbox<Change>();
    const channel = t.admin
      .channel(channelName('notes-identity'))
      .on('postgres_changes', { event: '*', schema: 'public', table: 'rt_notes' }, inbox.push);
    await subscribed(channel);
    const { rows } = await sql(
      `insert into rt_notes (owner_id, body) values (gen_random_uuid(), 'v1') returning id::int`,
    );
    const id = rows[0]!.id;
    await sql(`update rt_notes set body = 'v2' where id = $1`, [id]);
    await sql(`delete from rt_notes where id = $1`, [id]);
    await inbox.next((c) => c.eventType === 'INSERT');
    expect((await inbox.next((c) => c.eventType === 'UPDATE')).old).toEqual({ id });
    expect((await inbox.next((c) => c.eventType === 'DELETE')).old).toEqual({ id });
    await t.admin.removeChannel(channel);
  });

  it('routes each change only to the bindings whose event matches', async () => {
    const inserts = new Inbox<Change>();
    const deletes = new Inbox<Change>();
    const all = new Inbox<Change>();
    const channel = t.admin
      .channel(channelName('events'))
      .on(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'rt_items' },
        inserts.push,
      )
      .on(
        'postgres_changes',
        { event: 'DELETE', schema: 'public', table: 'rt_items' },
        deletes.push,
      )
      .on('postgres_changes', { event: '*', schema: 'public', table: 'rt_items' }, all.push);
    await subscribed(channel);
    const { rows } = await sql(`insert into rt_items (label) values ('routed') returning id::int`);
    await sql(`update rt_items set qty = 9 where id = $1`, [rows[0]!.id]);
    await sql(`delete from rt_items where id = $1`, [rows[0]!.id]);
    await all.next((c) => c.eventType === 'DELETE');
    expect(all.items.map((c) => c.eventType)).toEqual(['INSERT', 'UPDATE', 'DELETE']);
    expect(inserts.items.map((c) => c.eventType)).toEqual(['INSERT']);
    expect(deletes.items.map((c) => c.eventType)).toEqual(['DELETE']);
    await t.admin.removeChannel(channel);
  });

  it("delivers a table's changes in commit order", async () => {
    const inbox = new Inbox<Change>();
    const channel = t.admin
      .channel(channelName('order'))
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'rt_items' }, inbox.push);
    await subscribed(channel);
    const labels = Array.from({ length: 20 }, (_, i) => `order-${i}`);
    for (const label of labels) await sql(`insert into rt_items (label) values ($1)`, [label]);
    await inbox.next((c) => c.new.label === 'order-19');
    expect(inbox.items.map((c) => c.new.label)).toEqual(labels);
    await t.admin.removeChannel(channel);
  });

  // PGlite runs one transaction at a time; only PostgreSQL can interleave two.
  it.runIf(process.env.DATABASE_URL)(
    'delivers interleaved transactions in commit order, including one that started first and committed last',
    async () => {
      const inbox = new Inbox<Change>();
      const channel = t.admin
        .channel(channelName('interleaved'))
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'rt_items' },
          inbox.push,
        );
      await subscribed(channel);
      let releaseFirst!: () => void;
      const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
      let firstInserted!: () => void;
      const firstHasInserted = new Promise<void>((resolve) => (firstInserted = resolve));
      const first = t.platform.ctx.db.transaction(async (tx) => {
        await tx.query(`insert into rt_items (label) values ('started first')`);
        firstInserted();
        await firstMayCommit;
      });
      await firstHasInserted;
      await t.platform.ctx.db.transaction((tx) =>
        tx.query(`insert into rt_items (label) values ('committed first')`),
      );
      releaseFirst();
      await first;
      await inbox.next((c) => c.new.label === 'started first');
      expect(inbox.items.map((c) => c.new.label)).toEqual(['committed first', 'started first']);
      await t.admin.removeChannel(channel);
    },
  );

  const filterCases: { filter: string; expected: string[] }[] = [
    { filter: 'qty=eq.5', expected: ['beta'] },
    { filter: 'qty=neq.5', expected: ['alpha', 'gamma, delta'] },
    { filter: 'qty=lt.5', expected: ['alpha'] },
    { filter: 'qty=lte.5', expected: ['alpha', 'beta'] },
    { filter: 'qty=gt.5', expected: ['gamma, delta'] },
    { filter: 'qty=gte.5', expected: ['beta', 'gamma, delta'] },
    { filter: 'label=in.(alpha,"gamma, delta")', expected: ['alpha', 'gamma, delta'] },
    { filter: 'label=like.%et%', expected: ['beta'] },
    { filter: 'label=ilike.ALP%', expected: ['alpha'] },
    { filter: 'label=match.^g', expected: ['gamma, delta'] },
    { filter: 'label=imatch.^BE', expected: ['beta'] },
    { filter: 'due_at=is.null', expected: ['alpha', 'gamma, delta'] },
    { filter: 'due_at=gt.2026-01-01T00:00:00Z', expected: ['beta'] },
    { filter: 'status=not.eq.new', expected: ['beta', 'gamma, delta'] },
    { filter: 'status=isdistinct.new', expected: ['beta', 'gamma, delta'] },
    { filter: 'qty=gte.1,status=eq.new', expected: ['alpha'] },
  ];

  it('applies every filter operator like the real server', async () => {
    const inboxes = filterCases.map(() => new Inbox<Change>());
    const sentinel = new Inbox<Change>();
    let channel = t.admin.channel(channelName('filters'));
    filterCases.forEach(({ filter }, i) => {
      channel = channel.on(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'rt_items', filter },
        inboxes[i]!.push,
      );
    });
    channel = channel.on(
      'postgres_changes',
      { event: 'INSERT', schema: 'public', table: 'rt_items', filter: 'label=eq.sentinel' },
      sentinel.push,
    );
    await subscribed(channel);
    await sql(`insert into rt_items (label, qty, status) values ('alpha', 1, 'new')`);
    await sql(
      `insert into rt_items (label, qty, status, due_at) values ('beta', 5, 'done', '2026-02-01Z')`,
    );
    await sql(`insert into rt_items (label, qty, status) values ('gamma, delta', 10, 'a,b')`);
    await sql(`insert into rt_items (label, qty, status) values ('sentinel', -1, 'x')`);
    // One socket, one frame per change: once the sentinel is in, every earlier change is too.
    await sentinel.next();
    const got = inboxes.map((inbox) =>
      inbox.items.map((c) => c.new.label).filter((l) => l !== 'sentinel'),
    );
    expect(got).toEqual(filterCases.map((c) => c.expected));
    await t.admin.removeChannel(channel);
  });

  it('filters DELETE on old_record, which REPLICA IDENTITY FULL makes complete', async () => {
    const deletes = new Inbox<Change>();
    const channel = t.admin
      .channel(channelName('filtered-delete'))
      .on(
        'postgres_changes',
        { event: 'DELETE', schema: 'public', table: 'rt_items', filter: 'qty=eq.77' },
        deletes.push,
      )
      .on(
        'postgres_changes',
        { event: 'DELETE', schema: 'public', table: 'rt_items', filter: 'label=eq.last' },
        deletes.push,
      );
    await subscribed(channel);
    await sql(`insert into rt_items (label, qty) values ('keep', 1), ('drop', 77), ('last', 0)`);
    await sql(`delete from rt_items where label in ('keep', 'drop')`);
    await sql(`delete from rt_items where label = 'last'`);
    await deletes.next((c) => c.old.label === 'last');
    expect(deletes.items.map((c) => c.old.label)).toEqual(['drop', 'last']);
    await t.admin.removeChannel(channel);
  });

  it.each([
    {
      name: 'an unknown operator',
      binding: { table: 'rt_items', filter: 'qty=foo.1' },
      message: /^Error parsing `filter` params: /,
    },
    {
      name: 'a value the column type rejects',
      binding: { table: 'rt_items', filter: 'qty=eq.abc' },
      message: /^Error parsing `filter` params: .*integer/,
    },
    {
      name: 'an unknown column',
      binding: { table: 'rt_items', filter: 'nope=eq.1' },
      message: /^Error parsing `filter` params: invalid column for filter nope/,
    },
    {
      name: 'a table outside the publication',
      binding: { table: 'rt_unpublished' },
      message: /^Unable to subscribe to changes with given parameters/,
    },
  ])(
    'reports $name as a postgres_changes system error after the ok reply',
    async ({ binding, message }) => {
      const system = new Inbox<Record<string, unknown>>();
      const channel = t.admin
        .channel(channelName('bad-binding'))
        .on('postgres_changes', { event: '*', schema: 'public', ...binding }, () => {})
        .on('system', {}, system.push);
      await subscribed(channel);
      const msg = await system.next();
      expect(msg).toMatchObject({
        extension: 'postgres_changes',
        status: 'error',
        channel: expect.any(String) as string,
      });
      expect(msg.message).toMatch(message);
      await t.admin.removeChannel(channel);
    },
  );

  it('rejects the join itself for an invalid binding when the client waits for postgres_changes', async () => {
    const channel = t.admin
      .channel(channelName('wait'), { config: { postgres_changes_options: { wait: true } } })
      .on('postgres_changes', { event: '*', schema: 'public', table: 'rt_unpublished' }, () => {});
    await expect(subscribed(channel)).rejects.toThrow(
      /^RealtimeDisabledForConfiguration: Unable to subscribe/,
    );
    await t.admin.removeChannel(channel);
  });

  it('confirms a valid subscription with "Subscribed to PostgreSQL"', async () => {
    const system = new Inbox<Record<string, unknown>>();
    const channel = t.admin
      .channel(channelName('confirm'))
      .on('postgres_changes', { event: '*', schema: 'public', table: 'rt_items' }, () => {})
      .on('system', {}, system.push);
    await subscribed(channel);
    expect(await system.next()).toEqual({
      message: 'Subscribed to PostgreSQL',
      status: 'ok',
      extension: 'postgres_changes',
      channel: expect.stringMatching(/^confirm-/) as string,
    });
    await t.admin.removeChannel(channel);
  });

  it('follows DDL at runtime: a new column and a revoked column privilege show in the next event', async () => {
    const anon = t.client();
    const admin = new Inbox<Change>();
    const visitor = new Inbox<Change>();
    await subscribed(
      t.admin
        .channel(channelName('ddl-admin'))
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'rt_items' },
          admin.push,
        ),
    );
    await subscribed(
      anon
        .channel(channelName('ddl-anon'))
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'rt_items' },
          visitor.push,
        ),
    );
    await sql(`insert into rt_items (label) values ('before ddl')`);
    expect(Object.keys((await visitor.next()).new)).toContain('qty');
    await sql(`alter table rt_items add column note text`);
    await sql(`revoke select on rt_items from anon`);
    await sql(`grant select (id, label, status, due_at, note) on rt_items to anon`);
    await sql(`insert into rt_items (label, note) values ('after ddl', 'hi')`);
    expect((await admin.next((c) => c.new.label === 'after ddl')).new).toMatchObject({
      note: 'hi',
      qty: 0,
    });
    const seen = await visitor.next((c) => c.new.label === 'after ddl');
    expect(Object.keys(seen.new)).toEqual(['id', 'label', 'status', 'due_at', 'note']);
    await anon.removeAllChannels();
  });

  it('captures a table published while the server runs, with or without the DDL event trigger', async () => {
    await sql(`create table public.rt_late (id bigint primary key, label text)`);
    await sql(`alter publication supabase_realtime add table public.rt_late`);
    // Without a superuser there is no event trigger; the join itself must then attach capture.
    await sql(`drop event trigger if exists realtime_ddl`);
    await sql(`create table public.rt_later (id bigint primary key, label text)`);
    await sql(`alter publication supabase_realtime add table public.rt_later`);
    const late = new Inbox<Change>();
    const later = new Inbox<Change>();
    const channel = t.admin
      .channel(channelName('late'))
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'rt_late' }, late.push)
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'rt_later' }, later.push);
    await subscribed(channel);
    await sql(`insert into rt_late values (1, 'late')`);
    await sql(`insert into rt_later values (1, 'later')`);
    expect((await late.next()).new).toEqual({ id: 1, label: 'late' });
    expect((await later.next()).new).toEqual({ id: 1, label: 'later' });
    await t.admin.removeChannel(channel);
  });

  it('never lets the change log grow: delivered changes are deleted', async () => {
    const inbox = new Inbox<Change>();
    const channel = t.admin
      .channel(channelName('prune'))
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'rt_items' }, inbox.push);
    await subscribed(channel);
    await sql(`insert into rt_items (label) select 'bulk-' || g from generate_series(1, 50) g`);
    await inbox.next((c) => c.new.label === 'bulk-50');
    const { rows } = await sql(`select count(*)::int as n from realtime.change_log`);
    expect(rows[0]!.n).toBe(0);
    await t.admin.removeChannel(channel);
  });
});
