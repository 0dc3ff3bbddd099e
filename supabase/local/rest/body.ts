import type { Readable } from 'node:stream';
import { apiError, fail, ok, type Result } from './errors.ts';

/** Bodies above this are refused with 413 before any parsing. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Where a request's bytes come from: Node's incoming message. */
export type BodySource = Readable;

/** The request headers a body is judged by. */
export type BodyHeaders = {
  'content-length'?: string | undefined;
  'content-type'?: string | undefined;
};

const tooLarge = () =>
  fail<Buffer>(
    apiError(413, 'PGRST102', `Request body exceeds the limit of ${MAX_BODY_BYTES} bytes`),
  );

/**
 * The body as text, read with stream events rather than an async iterator (which costs a
 * promise per chunk and shows on the hot path of every write). Reading stops at the limit: the
 * stream is paused, so it never ends, and the listeners are left to go with the request.
 */
export function readBody(headers: BodyHeaders, source: BodySource): Promise<Result<Buffer>> {
  const declared = headers['content-length'];
  if (Number(declared ?? 0) > MAX_BODY_BYTES) return Promise.resolve(tooLarge());
  const arrived = declared === undefined ? undefined : wholeBody(source, Number(declared));
  if (arrived) return Promise.resolve(ok(arrived));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    source
      .on('data', (chunk: Buffer) => {
        if (size > MAX_BODY_BYTES) return;
        size += chunk.byteLength;
        if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
        source.pause();
        resolve(tooLarge());
      })
      .once('end', () => resolve(ok(Buffer.concat(chunks, size))))
      .once('error', reject);
  });
}

/**
 * The body when all of its declared length is already buffered: a small request arrives in one
 * packet with its headers, and taking its bytes at once spares the 'data' listener and event,
 * the chunks' copy and a promise per request.
 */
function wholeBody(source: BodySource, length: number): Buffer | undefined {
  if (source.readableFlowing || source.readableLength !== length) return undefined;
  const body = length === 0 ? Buffer.alloc(0) : (source.read(length) as Buffer | null);
  // Flowing, the stream emits its 'end' once the message's end is parsed, as Node expects of a
  // request whose body was read.
  source.resume();
  return body ?? undefined;
}

const invalidJson = () => apiError(400, 'PGRST102', 'Empty or invalid json');

/** The JSON body of a write or RPC call; only JSON content types are accepted. */
export async function readJson(
  headers: BodyHeaders,
  source: BodySource,
  allowEmpty: boolean,
): Promise<Result<unknown>> {
  const given = headers['content-type'];
  // Nearly every client sends exactly this; anything else is parsed as a media type.
  const type =
    given === undefined || given === 'application/json'
      ? 'application/json'
      : given.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json' && type !== 'application/vnd.pgrst.object+json' && type !== '') {
    return fail(apiError(415, 'PGRST107', `Content-Type not acceptable: ${type}`));
  }
  const bytes = await readBody(headers, source);
  if (!bytes.ok) return bytes;
  const text = bytes.value.toString('utf8');
  if (!text.trim()) return allowEmpty ? ok({}) : fail(invalidJson());
  try {
    return ok(JSON.parse(text) as unknown);
  } catch {
    return fail(invalidJson());
  }
}
