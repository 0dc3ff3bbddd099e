import type { Queryable } from '../db/index.ts';
import { asPlatform } from './caller.ts';
import { errors, fail } from './errors.ts';

/** The bucket settings an upload is checked against, read by the service itself (no RLS). */
export type BucketLimits = {
  id: string;
  public: boolean;
  fileSizeLimit: number | null;
  allowedMimeTypes: string[] | null;
};

export async function findBucket(db: Queryable, id: string): Promise<BucketLimits | null> {
  const { rows } = await db.query<{
    id: string;
    public: boolean | null;
    file_size_limit: string | null;
    allowed_mime_types: string[] | null;
  }>('select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1', [
    id,
  ]);
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    public: row.public === true,
    fileSizeLimit: row.file_size_limit === null ? null : Number(row.file_size_limit),
    allowedMimeTypes: row.allowed_mime_types,
  };
}

/** What `storage.objects.metadata` holds for every object (the service's S3 head fields). */
export type ObjectMetadata = {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
};

export type StoredObject = {
  id: string;
  metadata: ObjectMetadata;
  version: string | null;
  /** HTTP date of the last write. */
  lastModified: string;
};

/**
 * Finds an object row with the transaction's current role (RLS applies when that is the
 * caller), then fetches its bytes as the platform.
 */
export async function readObject(
  tx: Queryable,
  bucket: string,
  key: string,
): Promise<{ object: StoredObject; bytes: Uint8Array<ArrayBuffer> }> {
  const { rows } = await tx.query<{
    id: string;
    metadata: ObjectMetadata;
    version: string | null;
    last_modified: string;
  }>(
    `select id, metadata, version,
            to_char(updated_at at time zone 'UTC', 'Dy, DD Mon YYYY HH24:MI:SS "GMT"') as last_modified
       from storage.objects where bucket_id = $1 and name = $2`,
    [bucket, key],
  );
  const row = rows[0];
  if (!row) return fail(errors.noSuchKey());
  await asPlatform(tx);
  const data = await tx.query<{ data: Uint8Array<ArrayBuffer> }>(
    'select data from storage_local.object_data where object_id = $1',
    [row.id],
  );
  const bytes = data.rows[0]?.data;
  if (!bytes) return fail(errors.noSuchKey());
  return {
    object: {
      id: row.id,
      metadata: row.metadata,
      version: row.version,
      lastModified: row.last_modified,
    },
    bytes,
  };
}

/** Stores the bytes of the row just written (RLS already allowed it) and returns its id. */
export async function writeBytes(
  tx: Queryable,
  bucket: string,
  key: string,
  bytes: Uint8Array,
): Promise<string> {
  await asPlatform(tx);
  const { rows } = await tx.query<{ id: string }>(
    'select id from storage.objects where bucket_id = $1 and name = $2',
    [bucket, key],
  );
  const id = rows[0]?.id;
  if (!id) return fail(errors.noSuchKey());
  await tx.query(
    `insert into storage_local.object_data (object_id, data) values ($1, $2)
     on conflict (object_id) do update set data = excluded.data`,
    [id, bytes],
  );
  return id;
}
