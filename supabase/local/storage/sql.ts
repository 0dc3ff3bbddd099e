/** SQL fragments shared by the storage queries. */

/** A timestamptz as the service's JSON renders a JS Date: `2026-11-21T19:31:36.414Z`. */
export function iso(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** Escapes LIKE wildcards so a user's prefix or search matches literally. */
export function likeLiteral(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** One storage.objects row as the service returns it from remove/move (alias `o`). */
export const OBJECT_ROW_JSON = `json_build_object(
  'bucket_id', o.bucket_id, 'name', o.name, 'owner', o.owner, 'owner_id', o.owner_id,
  'id', o.id, 'version', o.version, 'metadata', o.metadata, 'user_metadata', o.user_metadata,
  'created_at', ${iso('o.created_at')}, 'updated_at', ${iso('o.updated_at')},
  'last_accessed_at', ${iso('o.last_accessed_at')})`;

/**
 * One storage.buckets row as storage-api's bucket routes answer it (alias `b`): `owner` is the
 * uuid column, which the service's response schema renders as '' when null.
 */
const BUCKET_FIELDS = `'id', b.id, 'name', b.name, 'owner', coalesce(b.owner::text, ''),
  'public', coalesce(b.public, false), 'file_size_limit', b.file_size_limit,
  'allowed_mime_types', b.allowed_mime_types,
  'created_at', ${iso('b.created_at')}, 'updated_at', ${iso('b.updated_at')}`;

/** `GET /bucket/<id>`: the columns, without `type` (storage-api selects them by name). */
export const BUCKET_ROW_JSON = `json_build_object(${BUCKET_FIELDS})`;

/** `GET /bucket`: the columns and the bucket's `type`, always STANDARD here. */
export const BUCKET_LIST_JSON = `json_build_object(${BUCKET_FIELDS}, 'type', 'STANDARD')`;

/** `GET /bucket` for Python clients that fail on `type`, which storage-api leaves it out for. */
export const BUCKET_LIST_UNTYPED_JSON = BUCKET_ROW_JSON;
