import { createHash, randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import * as v from 'valibot';
import type { PlatformContext } from '../context.ts';
import type { Queryable } from '../db/index.ts';
import type { Identity } from '../request-auth.ts';
import { asCaller, asPlatform, caller, ownerOf } from './caller.ts';
import { errors, fail } from './errors.ts';
import { readJson } from './json-body.ts';
import { bucketName, objectKey } from './names.ts';
import { findBucket, writeBytes, type ObjectMetadata } from './objects.ts';
import { OBJECT_ROW_JSON } from './sql.ts';
import {
  GLOBAL_FILE_SIZE_LIMIT,
  mimeAllowed,
  readUpload,
  type IncomingFile,
} from './upload-body.ts';

export type WriteMode = 'create' | 'upsert' | 'update';

/** `x-upsert` as supabase-js sends it; anything but true/false is a client error. */
export function upsertHeader(value: string | undefined): boolean {
  if (value === undefined) return false;
  const v = value.trim().toLowerCase();
  if (v !== 'true' && v !== 'false') fail(errors.invalidParameter('x-upsert'));
  return v === 'true';
}

function metadataOf(file: IncomingFile): ObjectMetadata {
  return {
    eTag: `"${createHash('md5').update(file.bytes).digest('hex')}"`,
    size: file.bytes.byteLength,
    mimetype: file.mimeType,
    cacheControl: file.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: file.bytes.byteLength,
    httpStatusCode: 200,
  };
}

/** Writes the object row as the transaction's role (RLS applies); no RETURNING, as upstream. */
async function writeRow(tx: Queryable, mode: WriteMode, params: readonly unknown[]): Promise<void> {
  if (mode === 'update') {
    const updated = await tx.query(
      `update storage.objects
          set owner = $3, owner_id = $4, metadata = $5::jsonb, user_metadata = $6::jsonb,
              version = $7, last_accessed_at = now()
        where bucket_id = $1 and name = $2`,
      params,
    );
    if (updated.rowCount === 0) fail(errors.noSuchKey());
    return;
  }
  await tx.query(
    `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
     values (gen_random_uuid(), $1, $2, $3, $4, $5::jsonb, $6::jsonb, $7)
     ${
       mode === 'upsert'
         ? `on conflict (bucket_id, name) do update
              set owner = excluded.owner, owner_id = excluded.owner_id,
                  metadata = excluded.metadata, user_metadata = excluded.user_metadata,
                  version = excluded.version, last_accessed_at = now()`
         : ''
     }`,
    params,
  );
}

/** Rolls back a permission probe that succeeded. */
class ProbeDone extends Error {}

type Target = { bucket: string; key: string };

function rowParams(
  target: Target,
  identity: Identity,
  metadata: ObjectMetadata | null,
  userMetadata: Record<string, unknown> | null,
): unknown[] {
  const { owner, ownerId } = ownerOf(identity);
  return [
    target.bucket,
    target.key,
    owner,
    ownerId,
    JSON.stringify(metadata),
    userMetadata === null ? null : JSON.stringify(userMetadata),
    randomUUID(),
  ];
}

/**
 * Tries the row write as `identity` and rolls it back, as the real service does before it
 * accepts an upload: RLS refusals and duplicates are answered before any body is read.
 */
export async function probeWrite(
  c: Context,
  ctx: PlatformContext,
  identity: Identity,
  target: Target,
  mode: WriteMode,
): Promise<void> {
  await asCaller(ctx.db, identity, c, async (tx) => {
    await writeRow(tx, mode, rowParams(target, identity, null, null));
    throw new ProbeDone();
  }).catch((e: unknown) => {
    if (!(e instanceof ProbeDone)) throw e;
  });
}

/**
 * Upload (POST, optionally upsert) or replace (PUT): after the probe, the bucket's size and
 * mime rules apply, and the row and its bytes are written in one transaction as the caller
 * (or as `as`, for signed uploads).
 */
export async function writeObject(
  c: Context,
  ctx: PlatformContext,
  target: Target,
  mode: WriteMode,
  as?: Identity,
): Promise<Response> {
  const identity = as ?? (await caller(c, ctx));
  const bucket = (await findBucket(ctx.db, target.bucket)) ?? fail(errors.noSuchBucket());
  await probeWrite(c, ctx, identity, target, mode);

  const limit = Math.min(bucket.fileSizeLimit || GLOBAL_FILE_SIZE_LIMIT, GLOBAL_FILE_SIZE_LIMIT);
  const file = await readUpload(c.req.raw, limit);
  if (!mimeAllowed(file.mimeType, bucket.allowedMimeTypes)) {
    fail(errors.invalidMimeType(file.mimeType));
  }
  const id = await asCaller(ctx.db, identity, c, async (tx) => {
    await writeRow(tx, mode, rowParams(target, identity, metadataOf(file), file.userMetadata));
    return writeBytes(tx, target.bucket, target.key, file.bytes);
  });
  return c.json({ Id: id, Key: `${target.bucket}/${target.key}` });
}

const RemoveBody = v.object({
  prefixes: v.pipe(
    v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(1024))),
    v.minLength(1),
    v.maxLength(1000),
  ),
});

/** `remove(paths)`: deletes what RLS lets the caller delete and returns those rows. */
export async function removeObjects(
  c: Context,
  ctx: PlatformContext,
  bucket: string,
): Promise<Response> {
  const identity = await caller(c, ctx);
  const body = await readJson(c.req.raw, RemoveBody);
  const rows = await asCaller(ctx.db, identity, c, async (tx) => {
    const r = await tx.query<{ row: unknown }>(
      `delete from storage.objects o where o.bucket_id = $1 and o.name = any($2::text[])
       returning ${OBJECT_ROW_JSON} as row`,
      [bucket, body.prefixes],
    );
    return r.rows.map((x) => x.row);
  });
  return c.json(rows);
}

const MoveBody = v.object({
  bucketId: v.string(),
  sourceKey: v.string(),
  destinationKey: v.string(),
  destinationBucket: v.optional(v.nullable(v.string())),
});

function moveTarget(body: v.InferOutput<typeof MoveBody>) {
  const from = { bucket: bucketName(body.bucketId), key: objectKey(body.sourceKey) };
  const to = {
    bucket: bucketName(body.destinationBucket ?? body.bucketId),
    key: objectKey(body.destinationKey),
  };
  return { from, to };
}

/** `move(from, to)`: renames the row as the caller (UPDATE policy on both names). */
export async function moveObject(c: Context, ctx: PlatformContext): Promise<Response> {
  const identity = await caller(c, ctx);
  const { from, to } = moveTarget(await readJson(c.req.raw, MoveBody));
  await asCaller(ctx.db, identity, c, async (tx) => {
    const moved = await tx.query(
      `update storage.objects set bucket_id = $3, name = $4
        where bucket_id = $1 and name = $2`,
      [from.bucket, from.key, to.bucket, to.key],
    );
    if (moved.rowCount === 0) fail(errors.noSuchKey());
  });
  return c.json({ message: 'Successfully moved' });
}

/** `copy(from, to)`: a new row owned by the caller (INSERT policy), with the same bytes. */
export async function copyObject(c: Context, ctx: PlatformContext): Promise<Response> {
  const identity = await caller(c, ctx);
  const { from, to } = moveTarget(await readJson(c.req.raw, MoveBody));
  const { owner, ownerId } = ownerOf(identity);
  const id = await asCaller(ctx.db, identity, c, async (tx) => {
    const source = await tx.query<{ id: string }>(
      'select id from storage.objects where bucket_id = $1 and name = $2',
      [from.bucket, from.key],
    );
    const sourceId = source.rows[0]?.id ?? fail(errors.noSuchKey());
    const newId = randomUUID();
    await tx.query(
      `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
       select $1, $2, $3, $4, $5, metadata, user_metadata, $6 from storage.objects where id = $7`,
      [newId, to.bucket, to.key, owner, ownerId, randomUUID(), sourceId],
    );
    await asPlatform(tx);
    await tx.query(
      `insert into storage_local.object_data (object_id, data)
       select $1, data from storage_local.object_data where object_id = $2`,
      [newId, sourceId],
    );
    return newId;
  });
  return c.json({ Id: id, Key: `${to.bucket}/${to.key}` });
}

/** `DELETE /object/:bucket/:key`: one object, through the DELETE policy. */
export async function removeObject(
  c: Context,
  ctx: PlatformContext,
  t: { bucket: string; key: string },
): Promise<Response> {
  const identity = await caller(c, ctx);
  await asCaller(ctx.db, identity, c, async (tx) => {
    const deleted = await tx.query(
      'delete from storage.objects where bucket_id = $1 and name = $2',
      [t.bucket, t.key],
    );
    if (deleted.rowCount === 0) fail(errors.noSuchKey());
  });
  return c.json({ message: 'Successfully deleted' });
}
