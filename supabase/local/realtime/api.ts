import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import * as v from 'valibot';
import type { Database } from '../db/index.ts';
import { identify, type Credentials, type Identity } from '../request-auth.ts';
import { channelPermissions } from './authorization.ts';
import type { Hub } from './hub.ts';
import type { UserBroadcast } from './protocol.ts';

const MAX_BODY_BYTES = 1024 * 1024;

const BatchBody = v.object({
  messages: v.pipe(
    v.array(
      v.object({
        topic: v.pipe(v.string(), v.minLength(1)),
        event: v.pipe(v.string(), v.minLength(1)),
        payload: v.optional(v.unknown()),
        private: v.optional(v.boolean()),
      }),
    ),
    v.minLength(1),
  ),
});

type Sender = { ok: true; identity: Identity } | { ok: false; response: Response };

/**
 * Broadcast over HTTP, as realtime-js uses it: `send()` before the channel joined falls back to
 * `POST /api/broadcast` with a batch, `httpSend()` posts one event to
 * `/api/broadcast/<channel>/events/<event>`. Both answer 202. A private channel takes a sender
 * its realtime.messages policies let write (authorization.ts), as for joins.
 */
export function createBroadcastApi(hub: Hub, credentials: Credentials, db: Database): Hono {
  const app = new Hono();
  app.use(
    '/api/broadcast/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json({ message: 'Payload Too Large' }, 413),
    }),
  );

  async function sender(c: Context): Promise<Sender> {
    const result = await identify(
      { authorization: c.req.header('authorization'), apikey: c.req.header('apikey') },
      credentials,
    );
    return result.ok
      ? { ok: true, identity: result.identity }
      : { ok: false, response: c.json({ message: result.message }, 401) };
  }

  /** A private channel takes a sender its realtime.messages INSERT policies let write. */
  const mayBroadcast = async (identity: Identity, topic: string) =>
    (await channelPermissions(db, identity, topic)).broadcast.write;

  const forbidden = (c: Context, topic: string) =>
    c.json(
      { message: `You do not have permissions to broadcast to this Channel topic: ${topic}` },
      403,
    );

  app.post('/api/broadcast', async (c) => {
    const who = await sender(c);
    if (!who.ok) return who.response;
    const parsed = v.safeParse(BatchBody, await c.req.json().catch(() => undefined));
    if (!parsed.success)
      return c.json({ message: `Invalid broadcast: ${v.summarize(parsed.issues)}` }, 422);
    for (const m of parsed.output.messages) {
      if (m.private && !(await mayBroadcast(who.identity, m.topic))) return forbidden(c, m.topic);
    }
    for (const m of parsed.output.messages) {
      hub.broadcast(
        { topic: `realtime:${m.topic}`, isPrivate: m.private === true },
        jsonBroadcast(m.event, m.payload),
      );
    }
    return c.body(null, 202);
  });

  app.post('/api/broadcast/:topic/events/:event', async (c) => {
    const who = await sender(c);
    if (!who.ok) return who.response;
    const { topic, event } = c.req.param();
    const isPrivate = c.req.query('private') === 'true';
    if (isPrivate && !(await mayBroadcast(who.identity, topic))) return forbidden(c, topic);
    const isBinary = c.req.header('content-type')?.startsWith('application/octet-stream') === true;
    let msg: UserBroadcast;
    if (isBinary) {
      msg = { event, encoding: 'binary', payload: Buffer.from(await c.req.arrayBuffer()) };
    } else {
      const body: unknown = await c.req.json().catch(() => undefined);
      if (body === undefined)
        return c.json({ message: 'Invalid broadcast: the body must be JSON' }, 422);
      msg = jsonBroadcast(event, body);
    }
    hub.broadcast({ topic: `realtime:${topic}`, isPrivate }, msg);
    return c.body(null, 202);
  });

  return app;
}

function jsonBroadcast(event: string, payload: unknown): UserBroadcast {
  return { event, encoding: 'json', payload: Buffer.from(JSON.stringify(payload ?? {})) };
}
