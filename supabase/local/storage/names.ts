import { errors, fail } from './errors.ts';

/**
 * Characters supabase/storage accepts in keys (`isValidKey`, plus Unicode letters and digits as
 * since its unicode-object-names migration). `%`, `#`, `\` and control characters are refused:
 * they could not round-trip through the URLs supabase-js builds with `encodeURI`.
 */
const KEY_CHARS = /^[\p{L}\p{N}\p{M}_/!\-.*'() &$@=;:+,?]+$/u;
const BUCKET_CHARS = /^[\p{L}\p{N}_!\-.*'() &$@=;:+,]+$/u;
const MAX_KEY_BYTES = 1024;
const MAX_BUCKET_LENGTH = 100;

function isDotSegment(segment: string): boolean {
  return segment === '.' || segment === '..';
}

/** Validates an object key: relative, no empty/dot segments, safe characters, ≤ 1024 bytes. */
export function objectKey(raw: string): string {
  const key = raw;
  const valid =
    key.length > 0 &&
    Buffer.byteLength(key, 'utf8') <= MAX_KEY_BYTES &&
    KEY_CHARS.test(key) &&
    !key.startsWith('/') &&
    key.split('/').every((s) => s.length > 0 && !isDotSegment(s));
  if (!valid) fail(errors.invalidKey(key.slice(0, 200)));
  return key;
}

/** Validates a bucket id or name with the service's own rule. */
export function bucketName(raw: string): string {
  const valid =
    raw.length > 0 &&
    raw.length <= MAX_BUCKET_LENGTH &&
    BUCKET_CHARS.test(raw) &&
    !isDotSegment(raw) &&
    raw.trim() === raw;
  if (!valid) fail(errors.invalidBucketName());
  return raw;
}

/**
 * Splits the `*` of `/object/.../:bucket/*` as Hono hands it (still percent-encoded) into the
 * decoded bucket and key. A malformed escape is a bad key, not a server error.
 */
export function splitBucketAndKey(encodedRest: string): { bucket: string; key: string } {
  const slash = encodedRest.indexOf('/');
  const rawBucket = slash < 0 ? encodedRest : encodedRest.slice(0, slash);
  const rawKey = slash < 0 ? '' : encodedRest.slice(slash + 1);
  const bucket = bucketName(decode(rawBucket, () => fail(errors.invalidBucketName())));
  const key = objectKey(decode(rawKey, () => fail(errors.invalidKey(rawKey.slice(0, 200)))));
  return { bucket, key };
}

export function decode(s: string, onError: () => never): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return onError();
  }
}
