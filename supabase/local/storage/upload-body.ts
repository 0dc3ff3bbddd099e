import * as v from 'valibot';
import { errors, fail } from './errors.ts';

/** Hosted Supabase's default global upload limit (free plan). */
export const GLOBAL_FILE_SIZE_LIMIT = 50 * 1024 * 1024;

/** Room for multipart boundaries and the small text fields around the file part. */
const MULTIPART_OVERHEAD = 64 * 1024;

export type IncomingFile = {
  bytes: Uint8Array;
  mimeType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
};

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(\s*;.{0,200})?$/i;
const CACHE_CONTROL = /^[\x20-\x7e]{1,256}$/;
const CACHE_SECONDS = /^\d{1,10}$/;
const MetadataSchema = v.record(v.string(), v.unknown());

/**
 * Reads the upload as supabase-js sends it (docs/platform-wire.md §5): a raw body with
 * `content-type` / `cache-control` / `x-metadata` headers, or multipart with an empty-named file
 * part plus `cacheControl` and `metadata` fields. Never reads more than `limit` bytes.
 */
export async function readUpload(req: Request, limit: number): Promise<IncomingFile> {
  const contentType = req.headers.get('content-type') ?? 'application/octet-stream';
  if (!MIME.test(contentType)) fail(errors.invalidParameter('content-type'));
  if (contentType.toLowerCase().startsWith('multipart/form-data')) {
    return readMultipart(req, contentType, limit);
  }
  const cacheControl = req.headers.get('cache-control') ?? 'no-cache';
  if (!CACHE_CONTROL.test(cacheControl)) fail(errors.invalidParameter('cache-control'));
  const bytes = await readCapped(req, limit);
  return {
    bytes,
    mimeType: contentType,
    cacheControl,
    userMetadata: parseMetadataHeader(req.headers.get('x-metadata')),
  };
}

async function readMultipart(
  req: Request,
  contentType: string,
  limit: number,
): Promise<IncomingFile> {
  const raw = await readCapped(req, limit + MULTIPART_OVERHEAD);
  let form: FormData;
  try {
    form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return fail(errors.invalidRequest('Unexpected empty file received'));
  }
  const file = [...form.values()].find((value): value is File => typeof value !== 'string');
  if (!file) return fail(errors.invalidRequest('No file provided'));
  if (file.size > limit) fail(errors.entityTooLarge());
  const cacheTime = form.get('cacheControl');
  if (cacheTime !== null && (typeof cacheTime !== 'string' || !CACHE_SECONDS.test(cacheTime))) {
    fail(errors.invalidParameter('cacheControl'));
  }
  const mimeType = file.type || 'application/octet-stream';
  if (!MIME.test(mimeType)) fail(errors.invalidParameter('content-type'));
  const metadata = form.get('metadata');
  return {
    bytes: new Uint8Array(await file.arrayBuffer()),
    mimeType,
    cacheControl: cacheTime ? `max-age=${cacheTime}` : 'no-cache',
    userMetadata: typeof metadata === 'string' ? parseMetadataJson(metadata) : null,
  };
}

function parseMetadataHeader(header: string | null): Record<string, unknown> | null {
  if (header === null) return null;
  if (header.length > 8192 || !/^[A-Za-z0-9+/=]*$/.test(header))
    fail(errors.invalidParameter('x-metadata'));
  return parseMetadataJson(Buffer.from(header, 'base64').toString('utf8'));
}

function parseMetadataJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    const parsed = v.safeParse(MetadataSchema, value);
    if (parsed.success && !Array.isArray(value) && text.length <= 8192) return parsed.output;
  } catch {
    // falls through to the same answer as a non-object value
  }
  return fail(errors.invalidParameter('metadata'));
}

/**
 * Reads a request body but keeps at most `limit` bytes: a declared oversize body is refused
 * before reading; a streamed one is drained (not buffered) so the client still gets the
 * EntityTooLarge answer instead of a reset connection.
 */
export async function readCapped(req: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = req.headers.get('content-length');
  if (declared !== null) {
    if (!/^\d{1,15}$/.test(declared)) fail(errors.invalidParameter('content-length'));
    if (Number(declared) > limit) fail(errors.entityTooLarge());
  }
  if (!req.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total <= limit) chunks.push(value);
    else if (total > limit * 4 + MULTIPART_OVERHEAD) {
      await reader.cancel().catch(() => {});
      break;
    }
  }
  if (total > limit) fail(errors.entityTooLarge());
  return Buffer.concat(chunks);
}

/** Bucket `allowed_mime_types` match on type/subtype (parameters ignored), `image/*` allowed. */
export function mimeAllowed(mimeType: string, allowed: readonly string[] | null): boolean {
  if (!allowed || allowed.length === 0) return true;
  const [type, subtype] = (mimeType.split(';')[0] ?? '').trim().toLowerCase().split('/');
  return allowed.some((entry) => {
    const [aType, aSub] = entry.trim().toLowerCase().split('/');
    return aType === type && (aSub === '*' || aSub === subtype);
  });
}
