import type { Context } from 'hono';
import * as v from 'valibot';
import type { PlatformContext } from '../context.ts';
import type { Queryable } from '../db/index.ts';
import { asCaller, caller } from './caller.ts';
import { errors, fail } from './errors.ts';
import { readJson } from './json-body.ts';
import { findBucket, readObject } from './objects.ts';
import { renderImage, transformFromQuery, type Rendered } from './render-image.ts';
import { downloadParam, objectResponse } from './serve-object.ts';
import { iso, likeLiteral } from './sql.ts';

type Target = { bucket: string; key: string };

/** `object` serves the bytes as stored; `render` transforms them (`/render/image/...`). */
export type Serve = 'object' | 'render';

type Read = Awaited<ReturnType<typeof readObject>>;

/** The object as served: transformed by the query's options on a render route. */
async function served(c: Context, read: Read, serve: Serve): Promise<Rendered> {
  if (serve === 'object') return { ...read, transformations: '' };
  const transform = transformFromQuery(c.req.query());
  return renderImage(read.object, read.bytes, transform, c.req.header('accept') ?? '');
}

/** `download(path)`: the caller must pass the SELECT policy on the object. */
export async function getAuthenticated(
  c: Context,
  ctx: PlatformContext,
  t: Target,
  serve: Serve = 'object',
): Promise<Response> {
  const identity = await caller(c, ctx);
  const download = downloadParam(c);
  const read = await asCaller(ctx.db, identity, c, (tx) => readObject(tx, t.bucket, t.key));
  const { object, bytes, transformations } = await served(c, read, serve);
  return objectResponse(object, bytes, { download, transformations });
}

/** `getPublicUrl(path)`: no credentials; only objects of public buckets. */
export async function getPublic(
  c: Context,
  ctx: PlatformContext,
  t: Target,
  serve: Serve = 'object',
): Promise<Response> {
  const download = downloadParam(c);
  const bucket = await findBucket(ctx.db, t.bucket);
  if (!bucket?.public) fail(errors.noSuchBucket());
  const read = await ctx.db.transaction((tx) => readObject(tx, t.bucket, t.key));
  const { object, bytes, transformations } = await served(c, read, serve);
  return objectResponse(object, bytes, { download, transformations });
}

const INFO_JSON = `json_build_object(
  'id', o.id, 'name', o.name, 'version', o.version, 'bucket_id', o.bucket_id,
  'size', (o.metadata->>'size')::bigint, 'content_type', o.metadata->>'mimetype',
  'cache_control', o.metadata->>'cacheControl', 'etag', o.metadata->>'eTag',
  'metadata', coalesce(o.user_metadata, '{}'::jsonb), 'last_modified', ${iso('o.updated_at')},
  'created_at', ${iso('o.created_at')})`;

/** `info(path)` / `exists(path)`: public buckets answer anyone, private ones go through RLS. */
export async function getInfo(
  c: Context,
  ctx: PlatformContext,
  t: Target,
  route: 'public' | 'authenticated',
): Promise<Response> {
  const bucket = await findBucket(ctx.db, t.bucket);
  const query = (tx: Queryable) =>
    tx.query<{ info: unknown }>(
      `select ${INFO_JSON} as info from storage.objects o where o.bucket_id = $1 and o.name = $2`,
      [t.bucket, t.key],
    );
  let rows: { info: unknown }[];
  if (route === 'public' || bucket?.public) {
    if (!bucket?.public) fail(errors.noSuchBucket());
    rows = (await query(ctx.db)).rows;
  } else {
    const identity = await caller(c, ctx);
    if (!bucket) fail(errors.noSuchBucket());
    rows = (await asCaller(ctx.db, identity, c, query)).rows;
  }
  const info = rows[0]?.info ?? fail(errors.noSuchKey());
  return c.json(info);
}

const SORT_COLUMNS = ['name', 'updated_at', 'created_at', 'last_accessed_at'] as const;

const ListBody = v.object({
  prefix: v.pipe(v.string(), v.maxLength(1024)),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)), 100),
  offset: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1_000_000)), 0),
  search: v.optional(v.pipe(v.string(), v.maxLength(1024)), ''),
  sortBy: v.optional(
    v.object({
      column: v.optional(v.picklist(SORT_COLUMNS), 'name'),
      order: v.optional(
        v.pipe(
          v.string(),
          v.transform((s) => s.toLowerCase()),
          v.picklist(['asc', 'desc']),
        ),
        'asc',
      ),
    }),
    { column: 'name', order: 'asc' },
  ),
});

/**
 * `list(prefix, options)`: one folder level, as the service's legacy `storage.search` does —
 * sub-folders first (id null), then the objects at this level, filtered by RLS.
 */
export async function listObjects(
  c: Context,
  ctx: PlatformContext,
  bucket: string,
): Promise<Response> {
  const identity = await caller(c, ctx);
  const body = await readJson(c.req.raw, ListBody);
  const prefix = body.prefix === '' || body.prefix.endsWith('/') ? body.prefix : `${body.prefix}/`;
  const level = prefix === '' ? 1 : prefix.split('/').length;
  // Both come from closed picklists, so they are safe to splice into the SQL.
  const column = body.sortBy.column;
  const order = body.sortBy.order === 'desc' ? 'desc' : 'asc';
  const result = await asCaller(ctx.db, identity, c, (tx) =>
    tx.query<{ list: unknown }>(
      `with matched as (
         select path_tokens, id, updated_at, created_at, last_accessed_at, metadata,
                array_length(path_tokens, 1) as depth
           from storage.objects
          where bucket_id = $1 and name ilike $2 escape '\\'
       ), entries as (
         select distinct path_tokens[$3] as name, null::uuid as id, null::timestamptz as updated_at,
                null::timestamptz as created_at, null::timestamptz as last_accessed_at,
                null::jsonb as metadata, 0 as kind
           from matched where depth > $3
         union all
         select path_tokens[$3], id, updated_at, created_at, last_accessed_at, metadata, 1
           from matched where depth = $3
       ), page as (
         select * from entries
          order by kind, case when kind = 0 then name end ${order}, ${column} ${order}, name
          limit $4 offset $5
       )
       select coalesce(json_agg(json_build_object(
                'name', name, 'id', id, 'updated_at', ${iso('updated_at')},
                'created_at', ${iso('created_at')}, 'last_accessed_at', ${iso('last_accessed_at')},
                'metadata', metadata)
              order by kind, case when kind = 0 then name end ${order}, ${column} ${order}, name),
              '[]'::json) as list
         from page`,
      [
        bucket,
        `${likeLiteral(prefix)}${likeLiteral(body.search)}%`,
        level,
        body.limit,
        body.offset,
      ],
    ),
  );
  return c.json(result.rows[0]?.list ?? []);
}
