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
import { ALL_PERMISSIONS, channelPermissions, type ChannelPermissions } from './authorization.ts';
import { checkAccessToken } from './token.ts';
import type { JwtKeyring } from '../jwt.ts';

export type SessionContext = {
  db: Database;
  keyring: JwtKeyring;
  feed: ChangeFeed;
  hub: Hub;
  log: Logger;
};

type Channel = Member & {
  name: string;
  /** Everything on a public channel; on a private one what the realtime.messages policies allow. */
  permissions: ChannelPermissions;
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

/** One connection's state; every function below takes it explicitly. */
type Session = {
  readonly ws: WebSocket;
  readonly vsn: Vsn;
  /** The API key or token given at connect; a join without its own token uses it. */
  readonly connectToken: string;
  readonly ctx: SessionContext;
  readonly channels: Map<string, Channel>;
  open: boolean;
  /** Frames are handled strictly one after another, so a leave never overtakes its join. */
  queue: Promise<void>;
};

/**
 * One WebSocket connection speaking Phoenix: heartbeats, and per topic a channel that joins,
 * receives postgres_changes, broadcast and presence, refreshes its token and leaves. Anything
 * malformed is answered with an error reply when it carries a ref, and otherwise ignored.
 */
export function openSession(
  ws: WebSocket,
  vsn: Vsn,
  connectToken: string,
  ctx: SessionContext,
): void {
  const s: Session = {
    ws,
    vsn,
    connectToken,
    ctx,
    channels: new Map(),
    open: true,
    queue: Promise.resolve(),
  };
  ws.on('message', (data, isBinary) => {
    const raw = Buffer.isBuffer(data)
      ? data
      : Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.from(data);
    s.queue = s.queue
      .then(() => (isBinary ? onBinary(s, raw) : onText(s, raw.toString('utf8'))))
      .catch((e: unknown) =>
        ctx.log.error({ msg: 'realtime: frame handling failed', error: String(e) }),
      );
  });
  ws.on('error', () => {});
  ws.on('close', () => {
    s.open = false;
    for (const ch of s.channels.values()) dispose(s, ch);
    s.channels.clear();
  });
}

function send(s: Session, frame: Frame): void {
  if (s.open) s.ws.send(encodeText(s.vsn, frame));
}

function sendBinary(s: Session, data: Buffer): void {
  if (s.open) s.ws.send(data, { binary: true });
}

function reply(s: Session, f: Frame, status: 'ok' | 'error', response: unknown): void {
  send(s, {
    joinRef: f.joinRef,
    ref: f.ref,
    topic: f.topic,
    event: 'phx_reply',
    payload: { status, response },
  });
}

async function onText(s: Session, text: string): Promise<void> {
  const frame = decodeText(s.vsn, text);
  if (!frame) return;
  if (frame.topic === PROTOCOL_TOPIC) {
    if (frame.event === 'heartbeat') reply(s, frame, 'ok', {});
    else reply(s, frame, 'error', { reason: 'unmatched topic' });
    return;
  }
  if (frame.event === 'phx_join') return join(s, frame);
  const ch = s.channels.get(frame.topic);
  if (!ch) {
    if (frame.ref !== null) reply(s, frame, 'error', { reason: 'unmatched topic' });
    return;
  }
  switch (frame.event) {
    case 'phx_leave':
      leave(s, ch);
      reply(s, frame, 'ok', {});
      send(s, {
        joinRef: ch.joinRef,
        ref: frame.ref,
        topic: ch.topic,
        event: 'phx_close',
        payload: {},
      });
      return;
    case 'access_token':
      return refreshToken(s, ch, frame);
    case 'broadcast':
      return onBroadcastFrame(s, ch, frame);
    case 'presence':
      return onPresence(s, ch, frame);
    default:
      // The real server ignores unexpected client events on a joined channel.
      return;
  }
}

function onBinary(s: Session, raw: Buffer): void {
  // Only vsn 2.0.0 defines binary frames; anything undecodable is dropped.
  if (s.vsn !== '2.0.0') return;
  const push = decodeBroadcastPush(raw);
  if (!push) return;
  const ch = s.channels.get(push.topic);
  const frame: Frame = {
    joinRef: push.joinRef,
    ref: push.ref,
    topic: push.topic,
    event: 'broadcast',
    payload: null,
  };
  if (!ch) {
    if (push.ref !== null) reply(s, frame, 'error', { reason: 'unmatched topic' });
    return;
  }
  fanOut(s, ch, push);
  if (ch.broadcastAck && push.ref !== null) reply(s, frame, 'ok', {});
}

async function join(s: Session, frame: Frame): Promise<void> {
  if (!frame.topic.startsWith('realtime:'))
    return reply(s, frame, 'error', { reason: 'unmatched topic' });
  const name = frame.topic.slice('realtime:'.length);
  if (!name)
    return reply(s, frame, 'error', {
      reason: 'TopicNameRequired: You must provide a topic name',
    });
  const parsed = v.safeParse(JoinPayload, frame.payload ?? {});
  if (!parsed.success) {
    return reply(s, frame, 'error', {
      reason: `InvalidJoinPayload: ${v.summarize(parsed.issues)}`,
    });
  }
  const { config = {}, access_token } = parsed.output;
  // A missing token, or an API key in the new format, means the key given at connect.
  const token = access_token && !access_token.startsWith('sb_') ? access_token : s.connectToken;
  const checked = await checkAccessToken(token, s.ctx.keyring);
  if (!checked.ok) return reply(s, frame, 'error', { reason: checked.reason });
  const isPrivate = config.private === true;
  const permissions = isPrivate
    ? await channelPermissions(s.ctx.db, checked.identity, name)
    : ALL_PERMISSIONS;
  if (!permissions.broadcast.read && !permissions.presence.read) {
    return reply(s, frame, 'error', {
      reason: `Unauthorized: You do not have permissions to read from this Channel topic: ${name}`,
    });
  }

  const raws = config.postgres_changes ?? [];
  const resolved =
    raws.length > 0 ? await resolveBindings(s.ctx.db, raws) : { ok: true as const, bindings: [] };
  if (!resolved.ok && config.postgres_changes_options?.wait) {
    return reply(s, frame, 'error', {
      reason: `RealtimeDisabledForConfiguration: ${resolved.message}`,
    });
  }

  // The socket may have closed while the join awaited the database.
  if (!s.open) return;
  const existing = s.channels.get(frame.topic);
  if (existing) close(s, existing);
  else if (s.channels.size >= MAX_CHANNELS) {
    return reply(s, frame, 'error', { reason: 'ChannelRateLimitReached: Too many channels' });
  }
  const ch: Channel = {
    topic: frame.topic,
    name,
    joinRef: frame.joinRef,
    isPrivate,
    permissions,
    identity: checked.identity,
    broadcastSelf: config.broadcast?.self === true,
    broadcastAck: config.broadcast?.ack === true,
    presenceKey: config.presence?.key || crypto.randomUUID(),
    presenceEnabled: config.presence?.enabled === true,
    push(event, payload) {
      if (event.startsWith('presence_') && !ch.permissions.presence.read) return;
      send(s, { joinRef: ch.joinRef, ref: null, topic: ch.topic, event, payload });
    },
    sendBroadcast: (msg) => {
      if (ch.permissions.broadcast.read) sendBroadcast(s, ch, msg);
    },
  };
  s.channels.set(frame.topic, ch);
  // Live before the ok reply: a change committed after SUBSCRIBED is never missed.
  if (resolved.ok && resolved.bindings.length > 0) {
    ch.stopChanges = subscribeChanges(s, ch, resolved.bindings);
    await s.ctx.feed.live();
  }
  scheduleTokenCheck(s, ch);

  reply(s, frame, 'ok', {
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
  s.ctx.hub.join(ch);
}

/**
 * JSON payloads go out as text frames, which every client decodes; binary payloads as vsn 2.0.0
 * kind-4 frames, which a vsn 1.0.0 client cannot receive.
 */
function sendBroadcast(s: Session, ch: Channel, msg: UserBroadcast): void {
  if (msg.encoding === 'json') {
    const payload = {
      type: 'broadcast',
      event: msg.event,
      payload: JSON.parse(msg.payload.toString('utf8')) as unknown,
    };
    send(s, { joinRef: null, ref: null, topic: ch.topic, event: 'broadcast', payload });
  } else if (s.vsn === '2.0.0') {
    const frame = encodeUserBroadcast(ch.topic, msg);
    if (frame) sendBinary(s, frame);
  }
}

function subscribeChanges(s: Session, ch: Channel, bindings: PgBinding[]): () => void {
  return s.ctx.feed.subscribe({
    bindings,
    identity: () => ch.identity,
    deliver(data: ChangeData, ids: number[]) {
      send(s, {
        joinRef: null,
        ref: null,
        topic: ch.topic,
        event: 'postgres_changes',
        payload: { ids, data },
      });
    },
  });
}

async function refreshToken(s: Session, ch: Channel, frame: Frame): Promise<void> {
  const parsed = v.safeParse(AccessTokenPayload, frame.payload);
  if (!parsed.success) return;
  const token = parsed.output.access_token;
  if (!token || token.startsWith('sb_') || token === ch.identity.token) return;
  const checked = await checkAccessToken(token, s.ctx.keyring);
  if (!checked.ok) return shutdown(s, ch, checked.reason);
  ch.identity = checked.identity;
  // A new identity on a private channel is authorised anew by the policies.
  if (ch.isPrivate) {
    ch.permissions = await channelPermissions(s.ctx.db, checked.identity, ch.name);
    if (!ch.permissions.broadcast.read && !ch.permissions.presence.read) {
      return shutdown(
        s,
        ch,
        `Unauthorized: You do not have permissions to read from this Channel topic: ${ch.name}`,
      );
    }
  }
  scheduleTokenCheck(s, ch);
}

/** Server-side channel stop: a system error the client shows, then phx_close. */
function shutdown(s: Session, ch: Channel, reason: string): void {
  const message = reason.replace(/^\w+: /, '');
  ch.push('system', { extension: 'system', status: 'error', message, channel: ch.name });
  close(s, ch);
}

function close(s: Session, ch: Channel): void {
  leave(s, ch);
  send(s, {
    joinRef: ch.joinRef,
    ref: ch.joinRef,
    topic: ch.topic,
    event: 'phx_close',
    payload: {},
  });
}

function leave(s: Session, ch: Channel): void {
  dispose(s, ch);
  if (s.channels.get(ch.topic) === ch) s.channels.delete(ch.topic);
}

function dispose(s: Session, ch: Channel): void {
  ch.stopChanges?.();
  clearTimeout(ch.tokenTimer);
  s.ctx.hub.leave(ch);
}

function scheduleTokenCheck(s: Session, ch: Channel): void {
  clearTimeout(ch.tokenTimer);
  const exp = typeof ch.identity.claims.exp === 'number' ? ch.identity.claims.exp * 1000 : Infinity;
  const delay = Math.max(0, Math.min(exp - Date.now(), TOKEN_RECHECK_MS));
  ch.tokenTimer = setTimeout(() => {
    void checkAccessToken(ch.identity.token, s.ctx.keyring).then((checked) => {
      if (s.channels.get(ch.topic) !== ch) return;
      if (checked.ok) scheduleTokenCheck(s, ch);
      else shutdown(s, ch, checked.reason);
    });
  }, delay + 1000);
  ch.tokenTimer.unref();
}

function onBroadcastFrame(s: Session, ch: Channel, frame: Frame): void {
  const parsed = v.safeParse(BroadcastPayload, frame.payload);
  if (!parsed.success) {
    if (frame.ref !== null)
      reply(s, frame, 'error', { reason: 'Broadcast payload needs an event' });
    return;
  }
  const json = JSON.stringify(parsed.output.payload ?? {});
  fanOut(s, ch, {
    event: parsed.output.event,
    encoding: 'json',
    payload: Buffer.from(json),
  });
  if (ch.broadcastAck && frame.ref !== null) reply(s, frame, 'ok', {});
}

/** A broadcast the sender may not write (private channel policies) is dropped, as upstream. */
function fanOut(s: Session, from: Channel, msg: UserBroadcast): void {
  if (!from.permissions.broadcast.write) return;
  s.ctx.hub.broadcast(from, msg, from.broadcastSelf ? undefined : from);
}

function onPresence(s: Session, ch: Channel, frame: Frame): void {
  const parsed = v.safeParse(PresencePayload, frame.payload);
  const event = parsed.success ? parsed.output.event.toLowerCase() : '';
  if (!parsed.success || (event !== 'track' && event !== 'untrack'))
    return reply(s, frame, 'error', {});
  if (event === 'track' && !ch.permissions.presence.write) {
    return reply(s, frame, 'error', {
      reason: `Unauthorized: You do not have permissions to track presence on this Channel topic: ${ch.name}`,
    });
  }
  if (event === 'track') s.ctx.hub.track(ch, parsed.output.payload);
  else s.ctx.hub.untrack(ch);
  reply(s, frame, 'ok', {});
}
