import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';
import { Inbox, channelName, subscribed, type Change } from './realtime-support.ts';

type Received = { text?: unknown; binary?: Buffer };

/** A bare Phoenix client on `ws`, for exact frames and for input supabase-js never sends. */
class RawSocket {
  readonly inbox = new Inbox<Received>();
  readonly closed: Promise<number>;
  private ref = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const buf = data as Buffer;
      this.inbox.push(
        isBinary ? { binary: buf } : { text: JSON.parse(buf.toString('utf8')) as unknown },
      );
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => resolve(code)));
  }

  static open(url: string): Promise<RawSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => resolve(new RawSocket(ws)));
      ws.once('error', reject);
    });
  }

  nextRef(): string {
    this.ref += 1;
    return String(this.ref);
  }

  send(data: unknown): void {
    this.ws.send(typeof data === 'string' || Buffer.isBuffer(data) ? data : JSON.stringify(data));
  }

  /** The next text frame whose ref (vsn 2.0.0 position 1) is `ref`. */
  reply(ref: string): Promise<unknown> {
    return this.inbox
      .next((m) => Array.isArray(m.text) && m.text[1] === ref, `reply to ${ref}`)
      .then((m) => m.text);
  }

  event(event: string, topic?: string): Promise<unknown[]> {
    return this.inbox
      .next(
        (m) =>
          Array.isArray(m.text) &&
          m.text[3] === event &&
          (topic === undefined || m.text[2] === topic),
        event,
      )
      .then((m) => m.text as unknown[]);
  }

  async heartbeat(): Promise<unknown> {
    const ref = this.nextRef();
    this.send([null, ref, 'phoenix', 'heartbeat', {}]);
    return this.reply(ref);
  }

  async join(topic: string, payload: unknown): Promise<{ joinRef: string; reply: unknown }> {
    const joinRef = this.nextRef();
    this.send([joinRef, joinRef, topic, 'phx_join', payload]);
    return { joinRef, reply: await this.reply(joinRef) };
  }

  close(): void {
    this.ws.close();
  }
}

describe('realtime protocol', () => {
  let t: TestPlatform;
  let wsUrl: string;
  const sockets: RawSocket[] = [];
  const clients: SupabaseClient[] = [];
  const sql = (text: string, params: unknown[] = []) => t.platform.ctx.db.query(text, params);

  async function raw(query = `apikey=${t.serviceRoleKey}&vsn=2.0.0`): Promise<RawSocket> {
    const s = await RawSocket.open(`${wsUrl}?${query}`);
    sockets.push(s);
    return s;
  }

  function vsnClient(vsn: '1.0.0' | '2.0.0'): SupabaseClient {
    const c = createClient(t.url, t.serviceRoleKey, {
      realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket, vsn },
    });
    clients.push(c);
    return c;
  }

  beforeAll(async () => {
    t = await startTestPlatform({ migrationsDir: 'tests/platform/sample-migrations' });
    wsUrl = `${t.url.replace(/^http/, 'ws')}/realtime/v1/websocket`;
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.allSettled(clients.map((c) => c.removeAllChannels()));
    await t.stop();
  });

  it.each([
    { name: 'no apikey', query: 'vsn=2.0.0' },
    { name: 'an apikey that is not a JWT', query: 'apikey=nope&vsn=2.0.0' },
    { name: 'an unknown protocol version', query: 'vsn=9.9.9' },
  ])('refuses the upgrade with 403 for $name', async ({ query }) => {
    const q = query.startsWith('vsn=9') ? `apikey=${t.anonKey}&${query}` : query;
    const status = await new Promise<number | undefined>((resolve) => {
      const ws = new WebSocket(`${wsUrl}?${q}`);
      ws.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode);
        ws.terminate();
      });
      ws.once('open', () => {
        resolve(undefined);
        ws.close();
      });
      ws.once('error', () => {});
    });
    expect(status).toBe(403);
  });

  it('answers heartbeats on the phoenix topic', async () => {
    const s = await raw();
    expect(await s.heartbeat()).toEqual([
      null,
      '1',
      'phoenix',
      'phx_reply',
      { status: 'ok', response: {} },
    ]);
  });

  it('speaks the exact vsn 2.0.0 frames of join, postgres_changes and leave', async () => {
    const s = await raw();
    const topic = 'realtime:raw-frames';
    const binding = { event: '*', schema: 'public', table: 'rt_items', filter: 'qty=gte.0' };
    const { joinRef, reply } = await s.join(topic, {
      config: {
        broadcast: { ack: false, self: false },
        presence: { key: '', enabled: false },
        postgres_changes: [binding],
        private: false,
      },
      access_token: t.serviceRoleKey,
    });
    expect(reply).toEqual([
      joinRef,
      joinRef,
      topic,
      'phx_reply',
      {
        status: 'ok',
        response: { postgres_changes: [{ ...binding, id: expect.any(Number) as number }] },
      },
    ]);
    const id = (
      reply as [
        unknown,
        unknown,
        unknown,
        unknown,
        { response: { postgres_changes: { id: number }[] } },
      ]
    )[4].response.postgres_changes[0]!.id;
    expect(Number.isInteger(id) && id > 0).toBe(true);
    expect(await s.event('system')).toEqual([
      joinRef,
      null,
      topic,
      'system',
      {
        message: 'Subscribed to PostgreSQL',
        status: 'ok',
        extension: 'postgres_changes',
        channel: 'raw-frames',
      },
    ]);

    await sql(`insert into rt_items (label, qty) values ('raw', 4)`);
    const change = await s.event('postgres_changes');
    expect(change.slice(0, 4)).toEqual([null, null, topic, 'postgres_changes']);
    const payload = change[4] as { ids: number[]; data: Record<string, unknown> };
    expect(payload.ids).toEqual([id]);
    expect(payload.data).toEqual({
      schema: 'public',
      table: 'rt_items',
      type: 'INSERT',
      commit_timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
      errors: null,
      columns: [
        { name: 'id', type: 'int8' },
        { name: 'label', type: 'text' },
        { name: 'qty', type: 'int4' },
        { name: 'status', type: 'text' },
        { name: 'due_at', type: 'timestamptz' },
      ],
      record: {
        id: expect.any(Number) as number,
        label: 'raw',
        qty: 4,
        status: 'new',
        due_at: null,
      },
    });
    expect(Object.keys(payload.data.record as object)).toEqual([
      'id',
      'label',
      'qty',
      'status',
      'due_at',
    ]);

    const leaveRef = s.nextRef();
    s.send([joinRef, leaveRef, topic, 'phx_leave', {}]);
    expect(await s.reply(leaveRef)).toEqual([
      joinRef,
      leaveRef,
      topic,
      'phx_reply',
      { status: 'ok', response: {} },
    ]);
    expect((await s.event('phx_close', topic)).slice(0, 4)).toEqual([
      joinRef,
      leaveRef,
      topic,
      'phx_close',
    ]);

    // After the leave, a second channel on the same socket sees the next change and the left
    // one does not: frames of one socket arrive in order.
    const other = await s.join('realtime:raw-after-leave', {
      config: { postgres_changes: [{ event: 'INSERT', schema: 'public', table: 'rt_items' }] },
    });
    expect(other.reply).toMatchObject([
      other.joinRef,
      other.joinRef,
      'realtime:raw-after-leave',
      'phx_reply',
      { status: 'ok' },
    ]);
    await sql(`insert into rt_items (label) values ('after leave')`);
    await s.event('postgres_changes', 'realtime:raw-after-leave');
    expect(s.inbox.unread().filter((m) => Array.isArray(m.text) && m.text[2] === topic)).toEqual(
      [],
    );
  });

  it('uses JSON objects for every frame with vsn 1.0.0', async () => {
    const s = await raw(`apikey=${t.serviceRoleKey}&vsn=1.0.0`);
    s.send({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '1', join_ref: null });
    expect((await s.inbox.next()).text).toEqual({
      topic: 'phoenix',
      event: 'phx_reply',
      payload: { status: 'ok', response: {} },
      ref: '1',
      join_ref: null,
    });
  });

  it('serves a supabase-js client configured with vsn 1.0.0', async () => {
    const client = vsnClient('1.0.0');
    expect(client.realtime.vsn).toBe('1.0.0');
    const inbox = new Inbox<Change>();
    const channel = client
      .channel(channelName('v1'))
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'rt_items' }, inbox.push);
    await subscribed(channel);
    await sql(`insert into rt_items (label, qty) values ('v1', 7)`);
    expect((await inbox.next()).new).toMatchObject({ label: 'v1', qty: 7 });
  });

  it('broadcasts between clients, to the sender only with self, and acks when asked', async () => {
    const name = channelName('room');
    const a = vsnClient('2.0.0');
    const b = vsnClient('2.0.0');
    const v1 = vsnClient('1.0.0');
    const aGot = new Inbox<Record<string, unknown>>();
    const bGot = new Inbox<Record<string, unknown>>();
    const v1Got = new Inbox<Record<string, unknown>>();
    const sender = await subscribed(
      a
        .channel(name, { config: { broadcast: { self: true, ack: true } } })
        .on('broadcast', { event: 'ping' }, aGot.push),
    );
    await subscribed(b.channel(name).on('broadcast', { event: 'ping' }, bGot.push));
    await subscribed(v1.channel(name).on('broadcast', { event: 'ping' }, v1Got.push));

    // vsn 2.0.0 sends this as a binary kind-3 frame.
    expect(
      await sender.send({ type: 'broadcast', event: 'ping', payload: { n: 1, text: 'olá' } }),
    ).toBe('ok');
    const expected = { type: 'broadcast', event: 'ping', payload: { n: 1, text: 'olá' } };
    expect(await bGot.next()).toEqual(expected);
    expect(await aGot.next()).toEqual(expected);
    expect(await v1Got.next()).toEqual(expected);

    // A receiver without self does not hear itself.
    const receiver = b.getChannels()[0]!;
    await receiver.send({ type: 'broadcast', event: 'ping', payload: { n: 2 } });
    expect((await aGot.next()).payload).toEqual({ n: 2 });
    await sender.send({ type: 'broadcast', event: 'ping', payload: { n: 3 } });
    expect((await bGot.next()).payload).toEqual({ n: 3 });
    expect(bGot.items.map((m) => (m.payload as { n: number }).n)).toEqual([1, 3]);

    // vsn 1.0.0 sends broadcast as a JSON object frame.
    await v1.getChannels()[0]!.send({ type: 'broadcast', event: 'ping', payload: { n: 4 } });
    expect((await bGot.next()).payload).toEqual({ n: 4 });
  });

  it('broadcasts over HTTP: httpSend, the send() fallback before joining, and binary payloads', async () => {
    const name = channelName('http-room');
    const listener = vsnClient('2.0.0');
    const got = new Inbox<Record<string, unknown>>();
    await subscribed(listener.channel(name).on('broadcast', { event: '*' }, got.push));
    const poster = vsnClient('2.0.0').channel(name);

    expect(await poster.httpSend('ping', { n: 1 })).toEqual({ success: true });
    expect(await got.next()).toEqual({ type: 'broadcast', event: 'ping', payload: { n: 1 } });

    expect(await poster.send({ type: 'broadcast', event: 'fallback', payload: { n: 2 } })).toBe(
      'ok',
    );
    expect(await got.next()).toEqual({ type: 'broadcast', event: 'fallback', payload: { n: 2 } });

    expect(await poster.httpSend('bytes', new Uint8Array([1, 2, 250]).buffer)).toEqual({
      success: true,
    });
    const binary = await got.next();
    expect(binary.event).toBe('bytes');
    expect([...new Uint8Array(binary.payload as ArrayBuffer)]).toEqual([1, 2, 250]);
  });

  it.each([
    {
      name: 'no API key',
      headers: {},
      body: { messages: [{ topic: 'x', event: 'e', payload: {} }] },
      status: 401,
    },
    { name: 'a body without messages', body: {}, status: 422 },
    { name: 'a body that is not JSON', body: 'nope', status: 422 },
    {
      name: 'a message without an event',
      body: { messages: [{ topic: 'x', payload: {} }] },
      status: 422,
    },
    {
      name: 'a private topic for anon',
      body: { messages: [{ topic: 'x', event: 'e', payload: {}, private: true }] },
      status: 403,
    },
  ])('refuses an HTTP broadcast with $name', async ({ headers, body, status }) => {
    const res = await fetch(`${t.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: headers ?? { apikey: t.anonKey, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ message: expect.any(String) as string });
  });

  it('tracks presence: state on join, diffs on track and untrack', async () => {
    const name = channelName('lobby');
    const a = vsnClient('2.0.0');
    const b = vsnClient('2.0.0');
    const aSyncs = new Inbox<string[]>();
    const leaves = new Inbox<string>();
    const chA = a
      .channel(name, { config: { presence: { key: 'alice' } } })
      .on('presence', { event: 'sync' }, () => aSyncs.push(Object.keys(chA.presenceState()).sort()))
      .on('presence', { event: 'leave' }, ({ key }: { key: string }) => leaves.push(key));
    await subscribed(chA);
    const chB = b.channel(name, { config: { presence: { key: 'bob' } } });
    await subscribed(chB);

    expect(await chA.track({ status: 'online' })).toBe('ok');
    expect(await chB.track({ status: 'busy' })).toBe('ok');
    await aSyncs.next((keys) => keys.join() === 'alice,bob', 'both present');
    expect(chA.presenceState().bob).toEqual([
      { presence_ref: expect.any(String) as string, status: 'busy' },
    ]);

    expect(await chB.untrack()).toBe('ok');
    expect(await leaves.next()).toBe('bob');
    await aSyncs.next((keys) => keys.join() === 'alice', 'bob gone');

    // Leaving the channel untracks too.
    expect(await chB.track({ status: 'back' })).toBe('ok');
    await aSyncs.next((keys) => keys.join() === 'alice,bob', 'bob back');
    await b.removeChannel(chB);
    expect(await leaves.next()).toBe('bob');
  });

  const garbage: { name: string; frame: string | Buffer | unknown[]; reply?: unknown }[] = [
    { name: 'text that is not JSON', frame: 'hello {' },
    { name: 'an object frame on vsn 2.0.0', frame: '{"topic":"phoenix","event":"heartbeat"}' },
    { name: 'a frame of the wrong arity', frame: [null, '90', 'phoenix'] },
    { name: 'a frame with a numeric topic', frame: [null, '91', 7, 'phx_join', {}] },
    { name: 'deeply nested JSON', frame: `${'['.repeat(20000)}${']'.repeat(20000)}` },
    {
      name: 'a join whose payload is not an object',
      frame: ['92', '92', 'realtime:junk', 'phx_join', 'nope'],
      reply: {
        status: 'error',
        response: { reason: expect.stringMatching(/^InvalidJoinPayload: /) as string },
      },
    },
    {
      name: 'a join whose bindings are not a list',
      frame: ['93', '93', 'realtime:junk', 'phx_join', { config: { postgres_changes: 'all' } }],
      reply: {
        status: 'error',
        response: { reason: expect.stringMatching(/^InvalidJoinPayload: /) as string },
      },
    },
    {
      name: 'a join outside realtime:',
      frame: ['94', '94', 'elsewhere', 'phx_join', {}],
      reply: { status: 'error', response: { reason: 'unmatched topic' } },
    },
    {
      name: 'a join without a channel name',
      frame: ['95', '95', 'realtime:', 'phx_join', {}],
      reply: {
        status: 'error',
        response: { reason: 'TopicNameRequired: You must provide a topic name' },
      },
    },
    {
      name: 'an event on a topic never joined',
      frame: [
        null,
        '96',
        'realtime:never',
        'broadcast',
        { type: 'broadcast', event: 'x', payload: {} },
      ],
      reply: { status: 'error', response: { reason: 'unmatched topic' } },
    },
    {
      name: 'an unknown event on the phoenix topic',
      frame: [null, '97', 'phoenix', 'reboot', {}],
      reply: { status: 'error', response: { reason: 'unmatched topic' } },
    },
    { name: 'binary garbage', frame: Buffer.from([0xff, 0x00, 0x13]) },
    {
      name: 'a kind-3 header whose lengths overrun the frame',
      frame: Buffer.from([3, 200, 200, 200, 200, 200, 1, 65]),
    },
    { name: 'a kind-3 frame with an unknown encoding', frame: Buffer.from([3, 0, 0, 0, 0, 0, 9]) },
    {
      name: 'a kind-3 broadcast whose JSON payload does not parse',
      frame: Buffer.concat([
        Buffer.from([3, 0, 0, 11, 1, 0, 1]),
        Buffer.from('realtime:jx{not json'),
      ]),
    },
  ];

  it.each(garbage)('survives $name', async ({ frame, reply }) => {
    const s = await raw();
    s.send(frame);
    if (reply !== undefined) {
      const ref = (frame as unknown[])[1] as string;
      expect(((await s.reply(ref)) as unknown[])[4]).toEqual(reply);
    }
    expect(await s.heartbeat()).toMatchObject([
      null,
      expect.any(String) as string,
      'phoenix',
      'phx_reply',
      { status: 'ok' },
    ]);
  });

  it('limits a socket to 100 channels and a join to 100 bindings', async () => {
    const s = await raw();
    const binding = { event: 'INSERT', schema: 'public', table: 'rt_items' };
    const tooMany = await s.join('realtime:many-bindings', {
      config: { postgres_changes: Array.from({ length: 101 }, () => binding) },
    });
    expect((tooMany.reply as unknown[])[4]).toMatchObject({ status: 'error' });
    for (let i = 0; i < 100; i++) {
      const { reply } = await s.join(`realtime:chan-${i}`, {});
      expect((reply as unknown[])[4]).toMatchObject({ status: 'ok' });
    }
    const { reply } = await s.join('realtime:chan-100', {});
    expect((reply as unknown[])[4]).toEqual({
      status: 'error',
      response: { reason: 'ChannelRateLimitReached: Too many channels' },
    });
  });

  it('ignores malformed events on a joined channel and keeps serving it', async () => {
    const s = await raw();
    const topic = 'realtime:joined-junk';
    const { joinRef } = await s.join(topic, {
      config: { postgres_changes: [{ event: 'INSERT', schema: 'public', table: 'rt_items' }] },
    });
    s.send([joinRef, s.nextRef(), topic, 'made_up_event', { x: 1 }]);
    s.send([joinRef, s.nextRef(), topic, 'access_token', { access_token: 42 }]);
    const presenceRef = s.nextRef();
    s.send([joinRef, presenceRef, topic, 'presence', { type: 'presence', event: 'dance' }]);
    expect(((await s.reply(presenceRef)) as unknown[])[4]).toEqual({
      status: 'error',
      response: {},
    });
    const broadcastRef = s.nextRef();
    s.send([joinRef, broadcastRef, topic, 'broadcast', { type: 'broadcast' }]);
    expect(((await s.reply(broadcastRef)) as unknown[])[4]).toMatchObject({ status: 'error' });
    await sql(`insert into rt_items (label) values ('still served')`);
    const change = await s.event('postgres_changes', topic);
    expect((change[4] as { data: { record: { label: string } } }).data.record.label).toBe(
      'still served',
    );
  });

  it('closes only the socket that sends a frame over 1 MB; other clients keep their events', async () => {
    const inbox = new Inbox<Change>();
    const client = vsnClient('2.0.0');
    await subscribed(
      client
        .channel(channelName('bystander'))
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'rt_items' },
          inbox.push,
        ),
    );
    const s = await raw();
    s.send([null, '1', 'phoenix', 'heartbeat', { pad: 'x'.repeat(1024 * 1024 + 10) }]);
    expect(await s.closed).toBe(1009);
    await sql(`insert into rt_items (label) values ('after huge frame')`);
    expect((await inbox.next()).new.label).toBe('after huge frame');
  });
  // Last: it shuts the service down for the rest of this file.
  it('closes every socket with 1001 on shutdown and refuses new ones', async () => {
    const s = await raw();
    await s.join('realtime:closing', {});
    await t.platform.realtime.close();
    expect(await s.closed).toBe(1001);
    const status = await new Promise<number | undefined>((resolve) => {
      const ws = new WebSocket(`${wsUrl}?apikey=${t.anonKey}&vsn=2.0.0`);
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode));
      ws.once('open', () => resolve(undefined));
      ws.once('error', () => {});
    });
    expect(status).toBe(503);
    await t.platform.realtime.close();
  });
});
