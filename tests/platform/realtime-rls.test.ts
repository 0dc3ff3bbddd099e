import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../supabase/local/jwt.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';
import {
  Inbox,
  channelName,
  clientAs,
  closeUserClients,
  mintUser,
  subscribed,
  type Change,
  type TestUser,
  type UserClient,
} from './realtime-support.ts';

describe('realtime RLS and access tokens', () => {
  let t: TestPlatform;
  let alice: TestUser;
  let bob: TestUser;
  const sql = (text: string, params: unknown[] = []) => t.platform.ctx.db.query(text, params);
  const insertNote = async (owner: TestUser, body: string, isPublic = false) =>
    (
      await sql(
        `insert into rt_notes (owner_id, body, is_public, internal_note) values ($1, $2, $3, 'x') returning id::int`,
        [owner.id, body, isPublic],
      )
    ).rows[0]!.id as number;

  async function notesChannel(who: UserClient, inbox: Inbox<Change>, opts: { ack?: boolean } = {}) {
    const channel = who.client
      .channel(channelName('notes'), { config: { broadcast: { ack: opts.ack ?? false } } })
      .on('postgres_changes', { event: '*', schema: 'public', table: 'rt_notes' }, inbox.push);
    return subscribed(channel);
  }

  beforeAll(async () => {
    t = await startTestPlatform({ migrationsDir: 'tests/platform/sample-migrations' });
    alice = await mintUser(t);
    bob = await mintUser(t);
  });
  afterAll(async () => {
    await closeUserClients();
    await t.stop();
  });

  it('delivers INSERT and UPDATE only to subscribers whose role and claims may select the row', async () => {
    const aliceInbox = new Inbox<Change>();
    const bobInbox = new Inbox<Change>();
    const anonInbox = new Inbox<Change>();
    await notesChannel(await clientAs(t, alice), aliceInbox);
    await notesChannel(await clientAs(t, bob), bobInbox);
    await notesChannel(await clientAs(t), anonInbox);

    await insertNote(bob, 'bob private');
    await insertNote(alice, 'alice private');
    const bobPublic = await insertNote(bob, 'bob public', true);

    // Each subscriber has one socket and changes go out in commit order, so once its last
    // expected change is in, anything it should not see would already have arrived.
    await aliceInbox.next((c) => c.new.body === 'alice private');
    expect(aliceInbox.items.map((c) => c.new.body)).toEqual(['alice private']);
    await bobInbox.next((c) => c.new.body === 'bob public');
    expect(bobInbox.items.map((c) => c.new.body)).toEqual(['bob private', 'bob public']);
    const anonSees = await anonInbox.next((c) => c.new.body === 'bob public');
    expect(anonInbox.items.map((c) => c.new.body)).toEqual(['bob public']);
    // anon holds no SELECT on internal_note: the column is neither listed nor sent.
    expect(anonSees.new).not.toHaveProperty('internal_note');
    expect(Object.keys(anonSees.new)).toEqual([
      'id',
      'owner_id',
      'body',
      'is_public',
      'tags',
      'meta',
      'price',
      'created_at',
    ]);

    await sql(`update rt_notes set is_public = false, body = 'bob hidden' where id = $1`, [
      bobPublic,
    ]);
    await insertNote(bob, 'bob public again', true);
    await anonInbox.next((c) => c.new.body === 'bob public again');
    expect(anonInbox.items.map((c) => c.new.body)).toEqual(['bob public', 'bob public again']);
  });

  it("carries a user's own REST write to that user's other device, and not to others", async () => {
    const phone = await clientAs(t, alice);
    const laptopInbox = new Inbox<Change>();
    const bobInbox = new Inbox<Change>();
    await notesChannel(await clientAs(t, alice), laptopInbox);
    await notesChannel(await clientAs(t, bob), bobInbox);
    const { error } = await phone.client
      .from('rt_notes')
      .insert({ owner_id: alice.id, body: 'from phone' });
    expect(error).toBeNull();
    expect((await laptopInbox.next()).new).toMatchObject({
      owner_id: alice.id,
      body: 'from phone',
    });
    await insertNote(bob, 'bob marker');
    await bobInbox.next((c) => c.new.body === 'bob marker');
    expect(bobInbox.items.map((c) => c.new.body)).toEqual(['bob marker']);
  });

  it('never matches a filter on a column the subscriber may not read', async () => {
    const anon = await clientAs(t);
    const hidden = new Inbox<Change>();
    const marker = new Inbox<Change>();
    await subscribed(
      anon.client
        .channel(channelName('hidden-filter'))
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'rt_notes', filter: 'internal_note=eq.x' },
          hidden.push,
        )
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'rt_notes', filter: 'body=eq.hidden marker' },
          marker.push,
        ),
    );
    await insertNote(bob, 'public with note', true);
    await insertNote(bob, 'hidden marker', true);
    await marker.next();
    expect(hidden.items).toEqual([]);
  });

  it('sends DELETE to every subscriber without an RLS check, carrying the primary key only', async () => {
    const aliceInbox = new Inbox<Change>();
    const anonInbox = new Inbox<Change>();
    await notesChannel(await clientAs(t, alice), aliceInbox);
    await notesChannel(await clientAs(t), anonInbox);
    const id = await insertNote(bob, 'bob secret');
    await sql(`delete from rt_notes where id = $1`, [id]);
    expect((await aliceInbox.next((c) => c.eventType === 'DELETE')).old).toEqual({ id });
    expect((await anonInbox.next((c) => c.eventType === 'DELETE')).old).toEqual({ id });
    expect(aliceInbox.items.map((c) => c.eventType)).toEqual(['DELETE']);
  });

  it('applies a token pushed with realtime.setAuth to the running subscription', async () => {
    const who = await clientAs(t);
    const inbox = new Inbox<Change>();
    const channel = await notesChannel(who, inbox, { ack: true });

    await insertNote(alice, 'before sign-in');
    await insertNote(alice, 'public marker', true);
    await inbox.next((c) => c.new.body === 'public marker');
    expect(inbox.items.map((c) => c.new.body)).toEqual(['public marker']);

    who.token = alice.token;
    await who.client.realtime.setAuth(alice.token);
    // An acknowledged broadcast is answered only after the server handled the earlier
    // access_token frame on this socket.
    expect(await channel.send({ type: 'broadcast', event: 'sync', payload: {} })).toBe('ok');
    await insertNote(alice, 'after sign-in');
    await inbox.next((c) => c.new.body === 'after sign-in');
  });

  it('closes the channel with a system error when the pushed token has expired', async () => {
    const who = await clientAs(t, alice);
    const system = new Inbox<Record<string, unknown>>();
    const statuses = new Inbox<string>();
    const channel = who.client
      .channel(channelName('expiring'))
      .on('postgres_changes', { event: '*', schema: 'public', table: 'rt_notes' }, () => {})
      .on('system', {}, system.push);
    channel.subscribe((status) => statuses.push(status));
    await statuses.next((s) => s === 'SUBSCRIBED');
    await system.next((m) => m.message === 'Subscribed to PostgreSQL');

    const expired = await mintUser(t, -30);
    who.token = expired.token;
    await who.client.realtime.setAuth(expired.token);
    const error = await system.next((m) => m.status === 'error');
    expect(error).toMatchObject({
      extension: 'system',
      status: 'error',
      channel: channel.subTopic,
    });
    expect(error.message).toMatch(/^Token has expired \d+ seconds ago$/);
    await statuses.next((s) => s === 'CLOSED');
  });

  it.each([
    {
      name: 'an expired token',
      token: () => mintUser(t, -120).then((u) => u.token),
      reason: /^InvalidJWTToken: Token has expired \d+ seconds ago$/,
    },
    {
      name: 'a token signed with another secret',
      token: () =>
        signJwt(
          { role: 'authenticated', exp: 4102444800 },
          'another-secret-another-secret-another-secret',
        ),
      reason: /^JwtSignatureError: Failed to validate JWT signature$/,
    },
    {
      name: 'a token without exp',
      token: () => signJwt({ role: 'authenticated', sub: bob.id }, t.platform.ctx.config.jwtSecret),
      reason: /^InvalidJWTToken: Fields `role` and `exp` are required in JWT$/,
    },
    {
      name: 'garbage',
      token: () => Promise.resolve('not-a-jwt'),
      reason: /^InvalidJWTToken: /,
    },
  ])('rejects a join carrying $name with the server error reason', async ({ token, reason }) => {
    const who = await clientAs(t);
    who.token = await token();
    await who.client.realtime.setAuth();
    const channel = who.client.channel(channelName('bad-token'));
    const error = await subscribed(channel).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(reason);
    await who.client.removeChannel(channel);
  });

  it('rejects a private channel for a role without access', async () => {
    const who = await clientAs(t, alice);
    const channel = who.client.channel(channelName('private'), { config: { private: true } });
    await expect(subscribed(channel)).rejects.toThrow(
      /^Unauthorized: You do not have permissions to read from this Channel topic: private-/,
    );
    await who.client.removeChannel(channel);
  });
});
