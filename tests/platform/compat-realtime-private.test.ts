import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';
import { Inbox, channelName, mintUser, subscribed, type TestUser } from './realtime-support.ts';

/**
 * Realtime Authorization as the Supabase docs describe it ("Realtime Authorization"): a
 * channel joined with `config: { private: true }` is authorised by RLS policies on
 * realtime.messages — SELECT to receive, INSERT to send, per `extension` ('broadcast',
 * 'presence'), with realtime.topic() naming the channel — for both protocol versions.
 */
const POLICIES = `
  create table public.sala_membros (
    topic text not null, user_id uuid not null, can_write boolean not null default false
  );
  create policy "members receive" on realtime.messages for select to authenticated
    using (exists (select 1 from public.sala_membros m
                    where m.topic = realtime.topic() and m.user_id = auth.uid())
           and realtime.messages.extension in ('broadcast', 'presence'));
  create policy "writers send" on realtime.messages for insert to authenticated
    with check (exists (select 1 from public.sala_membros m
                         where m.topic = realtime.topic() and m.user_id = auth.uid()
                           and m.can_write)
                and realtime.messages.extension in ('broadcast', 'presence'));
`;

describe.each(['1.0.0', '2.0.0'])('realtime private channels (vsn %s)', (vsn) => {
  let t: TestPlatform;
  let writer: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  const clients: SupabaseClient[] = [];

  function clientOf(user?: TestUser): SupabaseClient {
    const client = createClient(t.url, t.anonKey, {
      ...(user ? { accessToken: () => Promise.resolve(user.token) } : {}),
      realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket, vsn },
    });
    clients.push(client);
    return client;
  }

  async function joined(user: TestUser | undefined, topic: string): Promise<RealtimeChannel> {
    const client = clientOf(user);
    if (user) await client.realtime.setAuth(user.token);
    return client.channel(topic, { config: { private: true, broadcast: { self: false } } });
  }

  const addMember = (topic: string, user: TestUser, canWrite: boolean) =>
    t.platform.ctx.db.query(
      'insert into public.sala_membros (topic, user_id, can_write) values ($1, $2, $3)',
      [topic, user.id, canWrite],
    );

  beforeAll(async () => {
    t = await startTestPlatform({ migrationsDir: 'tests/platform/sample-migrations' });
    await t.platform.ctx.db.exec(POLICIES);
    [writer, reader, stranger] = [await mintUser(t), await mintUser(t), await mintUser(t)];
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.removeAllChannels()));
    await t.stop();
  });

  it('lets members join and refuses everyone else with the server words', async () => {
    const topic = channelName('sala');
    await addMember(topic, writer, true);
    await subscribed(await joined(writer, topic));
    const refusal = new RegExp(
      `^Unauthorized: You do not have permissions to read from this Channel topic: ${topic}$`,
    );
    await expect(subscribed(await joined(stranger, topic))).rejects.toThrow(refusal);
    await expect(subscribed(await joined(undefined, topic))).rejects.toThrow(refusal);
    // The public channel of the same name is another room and stays open.
    const open = clientOf(stranger).channel(topic);
    await subscribed(open);
  });

  it('delivers broadcasts only from senders the INSERT policy allows', async () => {
    const topic = channelName('avisos');
    await addMember(topic, writer, true);
    await addMember(topic, reader, false);
    const toReader = new Inbox<unknown>();
    const toWriter = new Inbox<unknown>();
    const readerChannel = await joined(reader, topic);
    readerChannel.on('broadcast', { event: 'msg' }, ({ payload }) => toReader.push(payload));
    await subscribed(readerChannel);
    const writerChannel = await joined(writer, topic);
    writerChannel.on('broadcast', { event: 'msg' }, ({ payload }) => toWriter.push(payload));
    await subscribed(writerChannel);

    await readerChannel.send({ type: 'broadcast', event: 'msg', payload: { from: 'reader' } });
    await writerChannel.send({ type: 'broadcast', event: 'msg', payload: { from: 'writer' } });
    expect(await toReader.next()).toEqual({ from: 'writer' });
    // The reader's message was dropped: the writer got nothing before a second writer message.
    await writerChannel.send({ type: 'broadcast', event: 'msg', payload: { n: 2 } });
    expect(await toReader.next()).toEqual({ n: 2 });
    expect(toWriter.items).toEqual([]);
  });

  it('lets presence be tracked only by writers, and seen by readers', async () => {
    const topic = channelName('presenca');
    await addMember(topic, writer, true);
    await addMember(topic, reader, false);
    const seen = new Inbox<string[]>();
    const readerChannel = await joined(reader, topic);
    readerChannel.on('presence', { event: 'sync' }, () =>
      seen.push(Object.keys(readerChannel.presenceState())),
    );
    await subscribed(readerChannel);
    const writerChannel = await joined(writer, topic);
    await subscribed(writerChannel);
    expect(await writerChannel.track({ nome: 'Ana' })).toBe('ok');
    await seen.next((keys) => keys.length === 1, 'the writer in presence');
    expect(await readerChannel.track({ nome: 'Bia' })).not.toBe('ok');
  });

  it('authorises HTTP broadcast to a private channel by the same policies', async () => {
    const topic = channelName('http');
    await addMember(topic, writer, true);
    await addMember(topic, reader, false);
    const post = (user: TestUser) =>
      fetch(`${t.url}/realtime/v1/api/broadcast`, {
        method: 'POST',
        headers: {
          apikey: t.anonKey,
          Authorization: `Bearer ${user.token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ messages: [{ topic, event: 'e', payload: {}, private: true }] }),
      });
    expect((await post(writer)).status).toBe(202);
    expect((await post(reader)).status).toBe(403);
  });
});
