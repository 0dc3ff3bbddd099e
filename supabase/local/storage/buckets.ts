import type { Context } from 'hono';
import * as v from 'valibot';
import type { PlatformContext } from '../context.ts';
import { isPgError } from '../db/index.ts';
import { asCaller, caller, ownerOf } from './caller.ts';
import { errors, fail } from './errors.ts';
import { readJson } from './json-body.ts';
import { bucketName } from './names.ts';
import { BUCKET_LIST_JSON, BUCKET_LIST_UNTYPED_JSON, BUCKET_ROW_JSON, likeLiteral } from './sql.ts';

/** Decimal units, as the service counts them: `20mb` is 20,000,000 bytes. */
const UNITS: Record<string, number> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9 };

const FileSizeLimit = v.union([v.pipe(v.number(), v.integer(), v.minValue(0)), v.string()]);

/**
 * `file_size_limit` in bytes as the service reads it (`parseFileSizeToBytes`): bytes, or a
 * number with a unit and no space (`5MB`, `1.5gb`, `3B`), rounded to three significant digits.
 */
function fileSizeBytes(value: number | string | null | undefined): number | null | undefined {
  if (typeof value !== 'string') return value;
  const m = /^(\d{1,15}(?:\.\d{1,15})?)(gb|mb|kb|b)$/i.exec(value);
  if (!m) {
    return fail(
      errors.invalidRequest('Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B'),
    );
  }
  const amount = Number(Number.parseFloat(m[1] ?? '0').toPrecision(3));
  return Math.round(amount * (UNITS[(m[2] ?? 'B').toUpperCase()] ?? 1));
}

const MimeTypes = v.pipe(
  v.array(v.pipe(v.string(), v.regex(/^[\w.+-]+\/[\w.+*-]+$/), v.maxLength(255))),
  v.maxLength(100),
);

const BucketSettings = {
  public: v.optional(v.boolean()),
  file_size_limit: v.optional(v.nullable(FileSizeLimit)),
  allowed_mime_types: v.optional(v.nullable(MimeTypes)),
  type: v.optional(v.picklist(['STANDARD'])),
  versioning_status: v.optional(v.unknown()),
};

const CreateBucket = v.object({ id: v.optional(v.string()), name: v.string(), ...BucketSettings });
const UpdateBucket = v.object({
  id: v.optional(v.string()),
  name: v.optional(v.string()),
  ...BucketSettings,
});

const ListQuery = v.object({
  limit: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,4}$/), v.transform(Number), v.maxValue(1000)),
  ),
  offset: v.optional(v.pipe(v.string(), v.regex(/^\d{1,7}$/), v.transform(Number))),
  search: v.optional(v.pipe(v.string(), v.maxLength(100))),
});

function limitOrNull(value: number | string | null | undefined): number | null {
  const limit = fileSizeBytes(value);
  return limit === undefined || limit === null || limit === 0 ? null : limit;
}

/**
 * Python clients older than these fail on a bucket's `type`; storage-api's bucket list leaves
 * it out when the request names one (supabase-py in `X-Client-Info`, storage3 in the user
 * agent). `first` is the first version that reads it, as major·10⁶ + minor·10³ + patch.
 */
const UNTYPED_CLIENTS = [
  {
    header: 'x-client-info',
    pattern: /supabase-py\/(\d{1,3})\.(\d{1,3})\.(\d{1,3})/i,
    first: 2_018_000,
  },
  {
    header: 'user-agent',
    pattern: /supabase-py\/storage3 v(\d{1,3})\.(\d{1,3})\.(\d{1,3})/i,
    first: 12_001,
  },
] as const;

function wantsUntypedBuckets(c: Context): boolean {
  return UNTYPED_CLIENTS.some(({ header, pattern, first }) => {
    const m = pattern.exec(c.req.header(header) ?? '');
    return m !== null && Number(m[1]) * 1e6 + Number(m[2]) * 1e3 + Number(m[3]) < first;
  });
}

/** `listBuckets()`: the buckets the caller's role may see (service role: all). */
export async function listBuckets(c: Context, ctx: PlatformContext): Promise<Response> {
  const identity = await caller(c, ctx);
  const q = v.safeParse(ListQuery, c.req.query());
  if (!q.success) return fail(errors.invalidRequest('Invalid query parameters'));
  const { rows } = await asCaller(ctx.db, identity, c, (tx) =>
    tx.query<{ list: unknown }>(
      `select coalesce(json_agg(${wantsUntypedBuckets(c) ? BUCKET_LIST_UNTYPED_JSON : BUCKET_LIST_JSON}
                           order by b.name), '[]'::json) as list
         from (select * from storage.buckets where name ilike $1 escape '\\'
               order by name limit $2 offset $3) b`,
      [`%${likeLiteral(q.output.search ?? '')}%`, q.output.limit ?? null, q.output.offset ?? 0],
    ),
  );
  return c.json(rows[0]?.list ?? []);
}

export async function getBucket(c: Context, ctx: PlatformContext, id: string): Promise<Response> {
  const identity = await caller(c, ctx);
  const { rows } = await asCaller(ctx.db, identity, c, (tx) =>
    tx.query<{ bucket: unknown }>(
      `select ${BUCKET_ROW_JSON} as bucket from storage.buckets b where b.id = $1`,
      [bucketName(id)],
    ),
  );
  return c.json(rows[0]?.bucket ?? fail(errors.noSuchBucket()));
}

/** `createBucket(id, options)`: RLS on storage.buckets decides (the service role bypasses it). */
export async function createBucket(c: Context, ctx: PlatformContext): Promise<Response> {
  const identity = await caller(c, ctx);
  const body = await readJson(c.req.raw, CreateBucket);
  const id = bucketName(body.id ?? body.name);
  const name = bucketName(body.name);
  const { owner, ownerId } = ownerOf(identity);
  await asCaller(ctx.db, identity, c, (tx) =>
    tx.query(
      `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [
        id,
        name,
        owner,
        ownerId,
        body.public ?? false,
        limitOrNull(body.file_size_limit),
        body.allowed_mime_types ?? null,
      ],
    ),
  );
  return c.json({ name: id });
}

export async function updateBucket(
  c: Context,
  ctx: PlatformContext,
  id: string,
): Promise<Response> {
  const identity = await caller(c, ctx);
  const body = await readJson(c.req.raw, UpdateBucket);
  await asCaller(ctx.db, identity, c, async (tx) => {
    const updated = await tx.query(
      `update storage.buckets
          set public = coalesce($2, public),
              file_size_limit = case when $3 then $4::bigint else file_size_limit end,
              allowed_mime_types = case when $5 then $6::text[] else allowed_mime_types end,
              updated_at = now()
        where id = $1`,
      [
        bucketName(id),
        body.public ?? null,
        body.file_size_limit !== undefined,
        limitOrNull(body.file_size_limit),
        body.allowed_mime_types !== undefined,
        body.allowed_mime_types ?? null,
      ],
    );
    if (updated.rowCount === 0) fail(errors.noSuchBucket());
  });
  return c.json({ message: 'Successfully updated' });
}

export async function deleteBucket(
  c: Context,
  ctx: PlatformContext,
  id: string,
): Promise<Response> {
  const identity = await caller(c, ctx);
  try {
    await asCaller(ctx.db, identity, c, async (tx) => {
      const deleted = await tx.query('delete from storage.buckets where id = $1', [bucketName(id)]);
      if (deleted.rowCount === 0) fail(errors.noSuchBucket());
    });
  } catch (e) {
    if (isPgError(e) && e.code === '23503') fail(errors.bucketNotEmpty());
    throw e;
  }
  return c.json({ message: 'Successfully deleted' });
}

/** `emptyBucket(id)`: deletes the objects RLS lets the caller delete. */
export async function emptyBucket(c: Context, ctx: PlatformContext, id: string): Promise<Response> {
  const identity = await caller(c, ctx);
  await asCaller(ctx.db, identity, c, async (tx) => {
    const found = await tx.query('select 1 from storage.buckets where id = $1', [bucketName(id)]);
    if (found.rows.length === 0) fail(errors.noSuchBucket());
    await tx.query('delete from storage.objects where bucket_id = $1', [id]);
  });
  // The service queues the emptying and says so; here it is done before the answer.
  return c.json({ message: 'Empty bucket has been queued. Completion may take up to an hour.' });
}
