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

const BUCKET_FIELDS = `'id', b.id, 'name', b.name, 'owner', coalesce(b.owner_id, b.owner::text, ''),
  'public', coalesce(b.public, false), 'file_size_limit', b.file_size_limit,
  'allowed_mime_types', b.allowed_mime_types,
  'created_at', ${iso('b.created_at')}, 'updated_at', ${iso('b.updated_at')}`;

/** One storage.buckets row as `GET /bucket` lists it (alias `b`): the columns, nothing more. */
export const BUCKET_LIST_JSON = `json_build_object(${BUCKET_FIELDS})`;

/** One storage.buckets row as `GET /bucket/<id>` returns it (alias `b`), with its type. */
export const BUCKET_ROW_JSON = `json_build_object(${BUCKET_FIELDS}, 'type', 'STANDARD')`;
