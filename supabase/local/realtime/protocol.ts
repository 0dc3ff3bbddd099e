import * as v from 'valibot';

/**
 * Phoenix wire frames as realtime-js speaks them (docs/platform-wire.md §4.1): vsn 2.0.0 sends JSON
 * arrays `[join_ref, ref, topic, event, payload]` plus binary frames for user broadcast; vsn
 * 1.0.0 sends JSON objects for everything.
 */
export type Vsn = '1.0.0' | '2.0.0';

export type Frame = {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
};

const Ref = v.nullish(v.union([v.string(), v.pipe(v.number(), v.transform(String))]), null);
const ArrayFrame = v.tuple([Ref, Ref, v.string(), v.string(), v.unknown()]);
const ObjectFrame = v.object({
  join_ref: Ref,
  ref: Ref,
  topic: v.string(),
  event: v.string(),
  payload: v.unknown(),
});

/** Parses a text frame; undefined for anything that is not a well-formed frame of this vsn. */
export function decodeText(vsn: Vsn, text: string): Frame | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (vsn === '2.0.0') {
    const r = v.safeParse(ArrayFrame, json);
    if (!r.success) return undefined;
    const [joinRef, ref, topic, event, payload] = r.output;
    return { joinRef, ref, topic, event, payload };
  }
  const r = v.safeParse(ObjectFrame, json);
  if (!r.success) return undefined;
  const o = r.output;
  return { joinRef: o.join_ref, ref: o.ref, topic: o.topic, event: o.event, payload: o.payload };
}

export function encodeText(vsn: Vsn, f: Frame): string {
  return vsn === '2.0.0'
    ? JSON.stringify([f.joinRef, f.ref, f.topic, f.event, f.payload])
    : JSON.stringify({
        topic: f.topic,
        event: f.event,
        payload: f.payload,
        ref: f.ref,
        join_ref: f.joinRef,
      });
}

const KIND_USER_BROADCAST_PUSH = 3;
const KIND_USER_BROADCAST = 4;
const ENCODING_BINARY = 0;
const ENCODING_JSON = 1;

/** A user broadcast: `payload` stays raw bytes so binary payloads pass through untouched. */
export type UserBroadcast = {
  event: string;
  encoding: 'json' | 'binary';
  payload: Buffer;
};

export type BroadcastPush = UserBroadcast & {
  topic: string;
  joinRef: string | null;
  ref: string | null;
};

/**
 * Decodes a client's binary "userBroadcastPush" (kind 3):
 * `[3, len(join_ref), len(ref), len(topic), len(event), len(meta), encoding, join_ref, ref, topic, event, meta, payload]`.
 * Undefined when the header lies about lengths, names an unknown kind or encoding, or a JSON
 * payload does not parse.
 */
export function decodeBroadcastPush(buf: Buffer): BroadcastPush | undefined {
  const HEADER = 7;
  if (buf.length < HEADER || buf[0] !== KIND_USER_BROADCAST_PUSH) return undefined;
  const [joinRefLen = 0, refLen = 0, topicLen = 0, eventLen = 0, metaLen = 0, encoding] =
    buf.subarray(1, HEADER);
  if (encoding !== ENCODING_BINARY && encoding !== ENCODING_JSON) return undefined;
  let offset = HEADER;
  const take = (n: number): string => {
    const s = buf.toString('utf8', offset, offset + n);
    offset += n;
    return s;
  };
  if (HEADER + joinRefLen + refLen + topicLen + eventLen + metaLen > buf.length) return undefined;
  const joinRef = take(joinRefLen);
  const ref = take(refLen);
  const topic = take(topicLen);
  const event = take(eventLen);
  take(metaLen);
  const payload = buf.subarray(offset);
  if (encoding === ENCODING_JSON) {
    try {
      JSON.parse(payload.toString('utf8'));
    } catch {
      return undefined;
    }
  }
  return {
    joinRef: joinRef || null,
    ref: ref || null,
    topic,
    event,
    encoding: encoding === ENCODING_JSON ? 'json' : 'binary',
    payload,
  };
}

/** Encodes a server "userBroadcast" (kind 4): `[4, len(topic), len(event), len(meta), encoding, topic, event, meta, payload]`. */
export function encodeUserBroadcast(topicName: string, b: UserBroadcast): Buffer | undefined {
  const topic = Buffer.from(topicName, 'utf8');
  const event = Buffer.from(b.event, 'utf8');
  if (topic.length > 255 || event.length > 255) return undefined;
  const header = Buffer.from([
    KIND_USER_BROADCAST,
    topic.length,
    event.length,
    0,
    b.encoding === 'json' ? ENCODING_JSON : ENCODING_BINARY,
  ]);
  return Buffer.concat([header, topic, event, b.payload]);
}
