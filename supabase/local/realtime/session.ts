import * as v from 'valibot';
import type { WebSocket } from 'ws';
import type { Database } from '../db/index.ts';
import type { Logger } from '../log.ts';
import type { Identity } from '../request-auth.ts';
import type { ChangeData, ChangeFeed, PgBinding } from './change-feed.ts';
import type { Hub, Member } from './hub.ts';
import { JoinPayload, echoBinding, resolveBindings } from './join.ts';
import {
  decodeBroadcastPush,
  decodeText,
  encodeText,
  encodeUserBroadcast,
  type Frame,
  type UserBroadcast,
  type Vsn,
} from './protocol.ts';
import { checkAccessToken } from './token.ts';

export type SessionContext = {
  db: Database;
  jwtSecret: string;
  feed: ChangeFeed;
  hub: Hub;
  log: Logger;
};

type Channel = Member & {
  name: string;
  joinRef: string | null;
  identity: Identity;
  broadcastSelf: boolean;
  broadcastAck: boolean;
  stopChanges?: () => void;
  tokenTimer?: NodeJS.Timeout;
};

const BroadcastPayload = v.object({
  type: v.optional(v.string()),
  event: v.string(),
  payload: v.optional(v.unknown()),
});
const PresencePayload = v.object({
  type: v.optional(v.string()),
  event: v.string(),
  payload: v.optional(v.record(v.string(), v.unknown()), {}),
});
const AccessTokenPayload = v.object({ access_token: v.nullish(v.string()) });

/** Re-check a channel's token at least this often, as the real server does. */
const TOKEN_RECHECK_MS = 5 * 60_000;
const PROTOCOL_TOPIC = 'phoenix';
/** The real server's default `max_channels_per_client`. */
const MAX_CHANNELS = 100;

/**
 * One WebSocket connection speaking Phoenix: heartbeats, and per topic a channel that joins,
 * receives postgres_changes, broadcast and presence, refreshes its token and leaves. Frames are
 * handled strictly one after another, so a leave never overtakes its join. Anything malformed is
 * answered with an error reply when it carries a ref, and otherwise ignored.
 */
export function openSession(
  ws: WebSocket,
  vsn: Vsn,
  connectToken: string,
  ctx: SessionContext,
): void {
  const channels = new Map<string, Channel>();
  let queue: Promise<void> = Promise.resolve();
  let open = true;

  const session = {
    send(frame: Frame): void {
      if (open) ws.send(encodeText(vsn, frame));
    },
    sendBinary(data: Buffer): void {
      if (open) ws.send(data, { binary: true });
    },
  };

  const reply = (f: Frame, status: 'ok' | 'error', response: unknown) =>
    session.send({
      joinRef: f.joinRef,
      ref: f.ref,
      topic: f.topic,
      event: 'phx_reply',
      payload: { status, response },
    });

  ws.on('message', (data, isBinary) => {
    const raw = Buffer.isBuffer(data)
      ? data
      : Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.from(data);
    queue = queue
      .then(() => (isBinary ? onBinary(raw) : onText(raw.toString('utf8'))))
      .catch((e: unknown) =>
        ctx.log.error({ msg: 'realtime: frame handling failed', error: String(e) }),
      );
  });
  ws.on('error', () => {});
  ws.on('close', () => {
    open = false;
    for (const ch of channels.values()) dispose(ch);
    channels.clear();
  });

  async function onText(text: string): Promise<void> {
    const frame = decodeText(vsn, text);
    if (!frame) return;
    if (frame.topic === PROTOCOL_TOPIC) {
      if (frame.event === 'heartbeat') reply(frame, 'ok', {});
      else reply(frame, 'error', { reason: 'unmatched topic' });
      return;
    }
    if (frame.event === 'phx_join') return join(frame);
    const ch = channels.get(frame.topic);
    if (!ch) {
      if (frame.ref !== null) reply(frame, 'error', { reason: 'unmatched topic' });
      return;
    }
    switch (frame.event) {
      case 'phx_leave':
        leave(ch);
        reply(frame, 'ok', {});
        session.send({
          joinRef: ch.joinRef,
          ref: frame.ref,
          topic: ch.topic,
          event: 'phx_close',
          payload: {},
        });
        return;
      case 'access_token':
        return refreshToken(ch, frame);
      case 'broadcast':
        return onBroadcastFrame(ch, frame);
      case 'presence':
        return onPresence(ch, frame);
      default:
        // The real server ignores unexpected client events on a joined channel.
        return;
    }
  }

  function onBinary(raw: Buffer): void {
    // Only vsn 2.0.0 defines binary frames; anything undecodable is dropped.
    if (vsn !== '2.0.0') return;
    const push = decodeBroadcastPush(raw);
    if (!push) return;
    const ch = channels.get(push.topic);
    const frame: Frame = {
      joinRef: push.joinRef,
      ref: push.ref,
      topic: push.topic,
      event: 'broadcast',
      payload: null,
    };
    if (!ch) {
      if (push.ref !== null) reply(frame, 'error', { reason: 'unmatched topic' });
      return;
    }
    fanOut(ch, push);
    if (ch.broadcastAck && push.ref !== null) reply(frame, 'ok', {});
  }

  async function join(frame: Frame): Promise<void> {
    if (!frame.topic.startsWith('realtime:'))
      return reply(frame, 'error', { reason: 'unmatched topic' });
    const name = frame.topic.slice('realtime:'.length);
    if (!name)
      return reply(frame, 'error', { reason: 'TopicNameRequired: You must provide a topic name' });
    const parsed = v.safeParse(JoinPayload, frame.payload ?? {});
    if (!parsed.success) {
      return reply(frame, 'error', { reason: `InvalidJoinPayload: ${v.summarize(parsed.issues)}` });
    }
    const { config = {}, access_token } = parsed.output;
    // A missing token, or an API key in the new format, means the key given at connect.
    const token = access_token && !access_token.startsWith('sb_') ? access_token : connectToken;
    const checked = await checkAccessToken(token, ctx.jwtSecret);
    if (!checked.ok) return reply(frame, 'error', { reason: checked.reason });
    const isPrivate = config.private === true;
    if (isPrivate && checked.identity.role !== 'service_role') {
      return reply(frame, 'error', {
        reason: `Unauthorized: You do not have permissions to read from this Channel topic: ${name}`,
      });
    }

    const raws = config.postgres_changes ?? [];
    const resolved =
      raws.length > 0 ? await resolveBindings(ctx.db, raws) : { ok: true as const, bindings: [] };
    if (!resolved.ok && config.postgres_changes_options?.wait) {
      return reply(frame, 'error', {
        reason: `RealtimeDisabledForConfiguration: ${resolved.message}`,
      });
    }

    // The socket may have closed while the join awaited the database.
    if (!open) return;
    const existing = channels.get(frame.topic);
    if (existing) close(existing);
    else if (channels.size >= MAX_CHANNELS) {
      return reply(frame, 'error', { reason: 'ChannelRateLimitReached: Too many channels' });
    }
    const ch: Channel = {
      topic: frame.topic,
      name,
      joinRef: frame.joinRef,
      isPrivate,
      identity: checked.identity,
      broadcastSelf: config.broadcast?.self === true,
      broadcastAck: config.broadcast?.ack === true,
      presenceKey: config.presence?.key || crypto.randomUUID(),
      presenceEnabled: config.presence?.enabled === true,
      push(event, payload) {
        session.send({ joinRef: ch.joinRef, ref: null, topic: ch.topic, event, payload });
      },
      sendBroadcast: (msg) => sendBroadcast(ch, msg),
    };
    channels.set(frame.topic, ch);
    // Live before the ok reply: a change committed after SUBSCRIBED is never missed.
    if (resolved.ok && resolved.bindings.length > 0)
      ch.stopChanges = subscribeChanges(ch, resolved.bindings);
    scheduleTokenCheck(ch);

    reply(frame, 'ok', {
      postgres_changes: raws.map((raw, i) =>
        echoBinding(raw, resolved.ok ? resolved.bindings[i]!.id : 0),
      ),
    });
    if (raws.length > 0) {
      const system = resolved.ok
        ? { message: 'Subscribed to PostgreSQL', status: 'ok' }
        : { message: resolved.message, status: 'error' };
      ch.push('system', { ...system, extension: 'postgres_changes', channel: name });
    }
    ctx.hub.join(ch);
  }

  /**
   * JSON payloads go out as text frames, which every client decodes; binary payloads as vsn 2.0.0
   * kind-4 frames, which a vsn 1.0.0 client cannot receive.
   */
  function sendBroadcast(ch: Channel, msg: UserBroadcast): void {
    if (msg.encoding === 'json') {
      const payload = {
        type: 'broadcast',
        event: msg.event,
        payload: JSON.parse(msg.payload.toString('utf8')) as unknown,
      };
      session.send({ joinRef: null, ref: null, topic: ch.topic, event: 'broadcast', payload });
    } else if (vsn === '2.0.0') {
      const frame = encodeUserBroadcast(ch.topic, msg);
      if (frame) session.sendBinary(frame);
    }
  }

  function subscribeChanges(ch: Channel, bindings: PgBinding[]): () => void {
    return ctx.feed.subscribe({
      bindings,
      identity: () => ch.identity,
      deliver(data: ChangeData, ids: number[]) {
        session.send({
          joinRef: null,
          ref: null,
          topic: ch.topic,
          event: 'postgres_changes',
          payload: { ids, data },
        });
      },
    });
  }

  async function refreshToken(ch: Channel, frame: Frame): Promise<void> {
    const parsed = v.safeParse(AccessTokenPayload, frame.payload);
    if (!parsed.success) return;
    const token = parsed.output.access_token;
    if (!token || token === ch.identity.token) return;
    const checked = await checkAccessToken(token, ctx.jwtSecret);
    if (!checked.ok) return shutdown(ch, checked.reason);
    ch.identity = checked.identity;
    scheduleTokenCheck(ch);
  }

  /** Server-side channel stop: a system error the client shows, then phx_close. */
  function shutdown(ch: Channel, reason: string): void {
    const message = reason.replace(/^\w+: /, '');
    ch.push('system', { extension: 'system', status: 'error', message, channel: ch.name });
    close(ch);
  }

  function close(ch: Channel): void {
    leave(ch);
    session.send({
      joinRef: ch.joinRef,
      ref: ch.joinRef,
      topic: ch.topic,
      event: 'phx_close',
      payload: {},
    });
  }

  function leave(ch: Channel): void {
    dispose(ch);
    if (channels.get(ch.topic) === ch) channels.delete(ch.topic);
  }

  function dispose(ch: Channel): void {
    ch.stopChanges?.();
    clearTimeout(ch.tokenTimer);
    ctx.hub.leave(ch);
  }

  function scheduleTokenCheck(ch: Channel): void {
    clearTimeout(ch.tokenTimer);
    const exp =
      typeof ch.identity.claims.exp === 'number' ? ch.identity.claims.exp * 1000 : Infinity;
    const delay = Math.max(0, Math.min(exp - Date.now(), TOKEN_RECHECK_MS));
    ch.tokenTimer = setTimeout(() => {
      void checkAccessToken(ch.identity.token, ctx.jwtSecret).then((checked) => {
        if (channels.get(ch.topic) !== ch) return;
        if (checked.ok) scheduleTokenCheck(ch);
        else shutdown(ch, checked.reason);
      });
    }, delay + 1000);
    ch.tokenTimer.unref();
  }

  function onBroadcastFrame(ch: Channel, frame: Frame): void {
    const parsed = v.safeParse(BroadcastPayload, frame.payload);
    if (!parsed.success) {
      if (frame.ref !== null) reply(frame, 'error', { reason: 'Broadcast payload needs an event' });
      return;
    }
    const json = JSON.stringify(parsed.output.payload ?? {});
    fanOut(ch, {
      event: parsed.output.event,
      encoding: 'json',
      payload: Buffer.from(json),
    });
    if (ch.broadcastAck && frame.ref !== null) reply(frame, 'ok', {});
  }

  function fanOut(from: Channel, msg: UserBroadcast): void {
    ctx.hub.broadcast(from, msg, from.broadcastSelf ? undefined : from);
  }

  function onPresence(ch: Channel, frame: Frame): void {
    const parsed = v.safeParse(PresencePayload, frame.payload);
    const event = parsed.success ? parsed.output.event.toLowerCase() : '';
    if (!parsed.success || (event !== 'track' && event !== 'untrack'))
      return reply(frame, 'error', {});
    if (event === 'track') ctx.hub.track(ch, parsed.output.payload);
    else ctx.hub.untrack(ch);
    reply(frame, 'ok', {});
  }
}
