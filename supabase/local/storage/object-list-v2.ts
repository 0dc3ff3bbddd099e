import type { Context } from 'hono';
import * as v from 'valibot';
import type { PlatformContext } from '../context.ts';
import { asCaller, caller } from './caller.ts';
import { errors, fail } from './errors.ts';
import { readJson } from './json-body.ts';
import { iso, likeLiteral } from './sql.ts';

const ListV2Body = v.object({
  prefix: v.optional(v.pipe(v.string(), v.maxLength(1024)), ''),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1000),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(4096))),
  with_delimiter: v.optional(v.boolean(), false),
  sortBy: v.optional(
    v.object({
      column: v.picklist(['name', 'updated_at', 'created_at']),
      order: v.optional(v.picklist(['asc', 'desc']), 'asc'),
    }),
    { column: 'name', order: 'asc' },
  ),
});

/** Where the previous page ended: the last entry's key and, when sorted by time, its time. */
const Cursor = v.object({ key: v.string(), at: v.optional(v.nullable(v.string())) });
type Cursor = v.InferOutput<typeof Cursor>;

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(raw: string): Cursor {
  try {
    const parsed = v.safeParse(Cursor, JSON.parse(Buffer.from(raw, 'base64url').toString()));
    if (parsed.success) return parsed.output;
  } catch {
    // Falls through to the service's answer for a bad parameter.
  }
  return fail(errors.invalidRequest('Invalid Parameter cursor'));
}

type Entry = {
  key: string;
  folder: boolean;
  id: string | null;
  version: string | null;
  metadata: unknown;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
};

/**
 * `listV2({prefix, limit, cursor, with_delimiter, sortBy})` (`POST /object/list-v2/<bucket>`):
 * every object whose key starts with `prefix`, or with the delimiter one level of it (deeper
 * keys folded into their `…/` folder), a page at a time with an opaque cursor, as the service's
 * ListObjectsV2. RLS on storage.objects decides what is listed. With the delimiter, entries are
 * ordered by key whatever `sortBy` says.
 */
export async function listObjectsV2(
  c: Context,
  ctx: PlatformContext,
  bucket: string,
): Promise<Response> {
  const identity = await caller(c, ctx);
  const body = await readJson(c.req.raw, ListV2Body);
  const limit = Math.min(body.limit, 1000);
  const cursor = body.cursor ? decodeCursor(body.cursor) : undefined;
  const byTime = !body.with_delimiter && body.sortBy.column !== 'name';
  // Both come from closed picklists, so they are safe to splice into the SQL.
  const column = byTime ? (body.sortBy.column as 'updated_at' | 'created_at') : null;
  const desc = body.sortBy.order === 'desc';
  const cmp = desc ? '<' : '>';
  const dir = desc ? 'desc' : 'asc';
  const after = column
    ? `($6::text is null or (${column}, key collate "C") ${cmp} ($7::timestamptz, $6::text collate "C"))`
    : `($6::text is null or key collate "C" ${cmp} $6::text collate "C")`;
  const order = column ? `${column} ${dir}, key collate "C" ${dir}` : `key collate "C" ${dir}`;
  const rows = await asCaller(ctx.db, identity, c, async (tx) => {
    const result = await tx.query<Entry>(
      `with matched as (
         select o.*, case when $3 and strpos(substr(o.name, $4 + 1), '/') > 0
                          then left(o.name, $4 + strpos(substr(o.name, $4 + 1), '/')) end as folder_key
           from storage.objects o
          where o.bucket_id = $1 and o.name like $2 escape '\\'
       ), entries as (
         select folder_key as key, true as folder, null::uuid as id, null::text as version,
                null::jsonb as metadata, null::timestamptz as updated_at,
                null::timestamptz as created_at, null::timestamptz as last_accessed_at
           from matched where folder_key is not null group by folder_key
         union all
         select name, false, id, version, metadata, updated_at, created_at, last_accessed_at
           from matched where folder_key is null
       )
       select key, folder, id, version, metadata, ${iso('updated_at')} as updated_at,
              ${iso('created_at')} as created_at, ${iso('last_accessed_at')} as last_accessed_at
         from entries where ${after}
        order by ${order} limit $5`,
      [
        bucket,
        `${likeLiteral(body.prefix)}%`,
        body.with_delimiter,
        body.prefix.length,
        limit + 1,
        cursor?.key ?? null,
        // Only the time order has a $7: an unused parameter has no type to infer.
        ...(column ? [cursor?.at ?? null] : []),
      ],
    );
    return result.rows;
  });
  const hasNext = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const name = (key: string) => key.slice(body.prefix.length);
  return c.json({
    hasNext,
    ...(hasNext && last
      ? { nextCursor: encodeCursor({ key: last.key, at: column ? last[column] : undefined }) }
      : {}),
    folders: page.filter((e) => e.folder).map((e) => ({ key: e.key, name: name(e.key) })),
    objects: page
      .filter((e) => !e.folder)
      .map((e) => ({
        id: e.id,
        key: e.key,
        name: name(e.key),
        version: e.version,
        metadata: e.metadata,
        updated_at: e.updated_at,
        created_at: e.created_at,
        last_accessed_at: e.last_accessed_at,
      })),
  });
}
