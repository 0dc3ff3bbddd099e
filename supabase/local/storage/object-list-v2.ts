import type { Context } from 'hono';
import * as v from 'valibot';
import type { PlatformContext } from '../context.ts';
import type { Identity } from '../request-auth.ts';
import { asCaller, caller } from './caller.ts';
import { errors, fail } from './errors.ts';
import { readJson } from './json-body.ts';
import { iso, likeLiteral } from './sql.ts';

const SORT_COLUMNS = ['name', 'updated_at', 'created_at'] as const;
type SortColumn = (typeof SORT_COLUMNS)[number];
const SortColumn = v.picklist(SORT_COLUMNS);
const SortOrder = v.picklist(['asc', 'desc']);

const ListV2Body = v.object({
  prefix: v.optional(v.pipe(v.string(), v.maxLength(1024)), ''),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(4096))),
  with_delimiter: v.optional(v.boolean(), false),
  sortBy: v.optional(v.object({ column: SortColumn, order: v.optional(SortOrder) })),
});

/**
 * Where the previous page ended, in storage-api's continuation token: base64 of `l:<last
 * key>`, `o:<order>`, `c:<column>`, `a:<last time>` lines, each only when set. Here `l` is the
 * entry's sort key (a folder's ends in `/`), so a folder and an object of the same name never
 * stand for each other.
 */
type Cursor = {
  startAfter: string;
  order?: string | undefined;
  column?: string | undefined;
  after?: string | undefined;
};

const CURSOR_PARTS = { l: 'startAfter', o: 'order', c: 'column', a: 'after' } as const;

function encodeCursor(cursor: Cursor): string {
  const lines = Object.entries(CURSOR_PARTS)
    .filter(([, field]) => cursor[field])
    .map(([part, field]) => `${part}:${cursor[field]}`);
  return Buffer.from(lines.join('\n')).toString('base64');
}

function decodeCursor(token: string): Cursor {
  const cursor: Cursor = { startAfter: '', order: 'asc' };
  for (const line of Buffer.from(token, 'base64').toString().split('\n')) {
    const m = /^(\S):(.*)/.exec(line);
    const field =
      m && Object.hasOwn(CURSOR_PARTS, m[1] ?? '')
        ? CURSOR_PARTS[m[1] as keyof typeof CURSOR_PARTS]
        : undefined;
    if (!m || !field) return fail(errors.invalidParameter('continuation token'));
    cursor[field] = m[2] ?? '';
  }
  if (cursor.after && Number.isNaN(Date.parse(cursor.after))) {
    return fail(errors.invalidParameter('continuation token'));
  }
  return cursor;
}

type Entry = {
  sort_key: string;
  name: string;
  folder: boolean;
  id: string | null;
  metadata: unknown;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
};

/**
 * The page's entries, one more than `limit` to tell whether another page follows. With the
 * delimiter every key one level below the prefix folds into its folder (`name` without the
 * trailing `/`, sorted as `…/`, its times the earliest creation under it), as storage-api's
 * `list_objects_with_delimiter` and `search_by_timestamp` fold them. Runs as the caller: RLS on
 * storage.objects decides what is listed.
 */
function listEntries(
  c: Context,
  ctx: PlatformContext,
  identity: Identity,
  query: { bucket: string; prefix: string; delimited: boolean; limit: number },
  sort: { column: SortColumn; desc: boolean },
  cursor: Cursor | undefined,
): Promise<Entry[]> {
  // Column and direction come from closed picklists, so they are safe to splice into the SQL.
  const dir = sort.desc ? 'desc' : 'asc';
  const cmp = sort.desc ? '<' : '>';
  const time =
    sort.column === 'name'
      ? null
      : `coalesce(date_trunc('milliseconds', ${sort.column}), 'epoch'::timestamptz)`;
  const after = !cursor
    ? 'true'
    : time
      ? `(${time}, sort_key collate "C") ${cmp} (coalesce(nullif($7, '')::timestamptz, 'epoch'::timestamptz), $6::text collate "C")`
      : `sort_key collate "C" ${cmp} $6::text collate "C"`;
  const order = `${time ? `${time} ${dir}, ` : ''}sort_key collate "C" ${dir}`;
  return asCaller(ctx.db, identity, c, async (tx) => {
    const result = await tx.query<Entry>(
      `with matched as (
         select o.name, o.id, o.metadata, o.updated_at, o.created_at, o.last_accessed_at,
                case when $3 and strpos(substr(o.name, length($4::text) + 1), '/') > 0
                     then left(o.name, length($4::text) + strpos(substr(o.name, length($4::text) + 1), '/'))
                end as common_prefix
           from storage.objects o
          where o.bucket_id = $1 and o.name like $2 escape '\\'
       ), entries as (
         select common_prefix as sort_key, rtrim(common_prefix, '/') as name, true as folder,
                null::uuid as id, null::jsonb as metadata, min(created_at) as updated_at,
                min(created_at) as created_at, null::timestamptz as last_accessed_at
           from matched where common_prefix is not null group by common_prefix
         union all
         select name, name, false, id, metadata, updated_at, created_at, last_accessed_at
           from matched where common_prefix is null
       )
       select sort_key, name, folder, id, metadata, ${iso('updated_at')} as updated_at,
              ${iso('created_at')} as created_at, ${iso('last_accessed_at')} as last_accessed_at
         from entries where ${after}
        order by ${order} limit $5`,
      [
        query.bucket,
        `${likeLiteral(query.prefix)}%`,
        query.delimited,
        query.prefix,
        query.limit + 1,
        // Only a cursor has a $6 (and, by time, a $7): an unused parameter has no type.
        ...(cursor ? [cursor.startAfter] : []),
        ...(cursor && time ? [cursor.after ?? ''] : []),
      ],
    );
    return result.rows;
  });
}

/**
 * `listV2({prefix, limit, cursor, with_delimiter, sortBy})` (`POST /object/list-v2/<bucket>`)
 * as storage-api's ListObjectsV2 answers it: `{hasNext, nextCursor?, nextCursorKey?, folders,
 * objects}`, pages of `limit` (at most 1000) counted over folders and objects together, `name`
 * the full key (a folder's ending in `/`). Without the delimiter objects carry the table's
 * columns; with it both folders and objects also carry `key`, their own segment of the path
 * at the prefix's depth. A cursor keeps the order it was made with.
 */
export async function listObjectsV2(
  c: Context,
  ctx: PlatformContext,
  bucket: string,
): Promise<Response> {
  const identity = await caller(c, ctx);
  const body = await readJson(c.req.raw, ListV2Body);
  const limit = Math.min(body.limit ?? 1000, 1000);
  const cursor = body.cursor ? decodeCursor(body.cursor) : undefined;
  const order = cursor?.order || body.sortBy?.order;
  // A cursor's column the service does not know falls back to the name, as storage-api's does.
  const requested = cursor?.column || body.sortBy?.column;
  const column = SORT_COLUMNS.find((known) => known === requested);
  const sort = { column: column ?? 'name', desc: order === 'desc' };
  const delimited = body.with_delimiter;
  const rows = await listEntries(
    c,
    ctx,
    identity,
    { bucket, prefix: body.prefix, delimited, limit },
    sort,
    cursor,
  );
  const hasNext = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = hasNext ? page.at(-1) : undefined;
  const levels = body.prefix ? body.prefix.split('/').length : 1;
  const key = (name: string) => name.split('/')[levels - 1] ?? '';
  const byTime = sort.column !== 'name';
  return c.json({
    hasNext,
    ...(last
      ? {
          nextCursor: encodeCursor({
            startAfter: last.sort_key,
            order,
            column,
            after: byTime ? (last[sort.column] ?? undefined) : undefined,
          }),
          nextCursorKey: last.name,
        }
      : {}),
    folders: page
      .filter((e) => e.folder)
      .map((e) => ({
        key: key(e.name),
        name: `${e.name}/`,
        id: null,
        updated_at: byTime ? e.updated_at : null,
        created_at: byTime ? e.created_at : null,
        last_accessed_at: null,
        metadata: null,
      })),
    objects: page
      .filter((e) => !e.folder)
      .map((e) => ({
        ...(delimited ? { key: key(e.name) } : {}),
        id: e.id,
        name: e.name,
        metadata: e.metadata,
        updated_at: e.updated_at,
        created_at: e.created_at,
        last_accessed_at: e.last_accessed_at,
      })),
  });
}
