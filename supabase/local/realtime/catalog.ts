import type { Queryable } from '../db/index.ts';
import { API_ROLES } from '../request-auth.ts';

export type ColumnInfo = {
  name: string;
  /** `pg_type.typname`, what the wire carries (`int8`, `_text`, …). */
  type: string;
  /** `format_type()`, what SQL casts to (`bigint`, `text[]`, `character varying(20)`). */
  sqlType: string;
  /** API roles with SELECT on this column. */
  selectableBy: string[];
};

export type TableInfo = {
  relid: number;
  schema: string;
  name: string;
  rls: boolean;
  primaryKey: string[];
  /** In attnum order. */
  columns: ColumnInfo[];
};

/** Table shape and per-role column privileges, read fresh so DDL at runtime is honoured. */
export async function loadTables(db: Queryable, relids: number[]): Promise<Map<number, TableInfo>> {
  const { rows } = await db.query<TableInfo>(
    `select c.oid::int as relid, n.nspname as schema, c.relname as name, c.relrowsecurity as rls,
            coalesce((select json_agg(a.attname order by array_position(i.indkey::int2[], a.attnum))
                        from pg_index i
                        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
                       where i.indrelid = c.oid and i.indisprimary), '[]'::json) as "primaryKey",
            (select json_agg(json_build_object(
                      'name', a.attname, 'type', t.typname,
                      'sqlType', format_type(a.atttypid, a.atttypmod),
                      'selectableBy', array(select r from unnest($2::text[]) r
                                             where has_column_privilege(r, c.oid, a.attnum, 'SELECT')))
                      order by a.attnum)
               from pg_attribute a join pg_type t on t.oid = a.atttypid
              where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.oid = any ($1::oid[])`,
    [relids, [...API_ROLES]],
  );
  return new Map(rows.map((r) => [r.relid, { ...r, columns: r.columns ?? [] }]));
}

export type PublishedTable = { relid: number; schema: string; name: string; captured: boolean };

/** Tables of publication supabase_realtime matching a binding's schema and table (`*` = any). */
export async function publishedTables(
  db: Queryable,
  schema: string,
  table: string,
): Promise<PublishedTable[]> {
  const { rows } = await db.query<PublishedTable>(
    `select c.oid::int as relid, n.nspname as schema, c.relname as name,
            exists (select 1 from pg_trigger g where g.tgrelid = c.oid and g.tgname = 'realtime_capture') as captured
       from pg_publication_tables p
       join pg_namespace n on n.nspname = p.schemaname
       join pg_class c on c.relnamespace = n.oid and c.relname = p.tablename
      where p.pubname = 'supabase_realtime' and c.relkind = 'r'
        and ($1 = '*' or p.schemaname = $1) and ($2 = '*' or p.tablename = $2)`,
    [schema, table],
  );
  return rows;
}

/** Attaches the capture trigger to published tables that lack it (tables added at runtime). */
export async function syncCaptureTriggers(db: Queryable): Promise<void> {
  await db.query('select realtime.sync_triggers()');
}
