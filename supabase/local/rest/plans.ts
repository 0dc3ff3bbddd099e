import { apiError, fail, ok, parseError, type ApiError, type Result } from './errors.ts';
import type { Preferences, Representation } from './negotiate.ts';
import { planQuery, type Node } from './query.ts';
import { renderRoot, whereSql } from './render.ts';
import { ident, Params, type Source } from './sql.ts';
import type { Relation, SchemaCache } from './schema-cache.ts';
import type { QueryResult } from '../db/index.ts';

/**
 * One request as SQL. `rows` statements return one row {total, page, body, inserted};
 * `affected` statements are plain DML whose row counts are summed (return=minimal needs no
 * RETURNING, so a write allowed by RLS but not readable back still succeeds, as in PostgREST).
 */
export type Plan =
  | {
      shape: 'rows';
      sql: string;
      params: unknown[];
      offset: number;
      /** `explain (format json)` of the filtered rows, run first for planned/estimated counts. */
      explain?: { sql: string; params: unknown[]; maxRows: number };
      count?: Preferences['count'];
    }
  | { shape: 'affected'; statements: { sql: string; params: unknown[] }[] }
  | { shape: 'scalar' | 'void'; sql: string; params: unknown[] }
  /** EXPLAIN of a read, answered as the plan itself (`application/vnd.pgrst.plan`). */
  | { shape: 'explain'; format: 'json' | 'text'; sql: string; params: unknown[] };

export type RowsResult = {
  total: string | null;
  page: string;
  body: string | null;
  inserted: string | null;
};

export type ReadOptions = {
  representation: Representation;
  prefer: Preferences;
  head: boolean;
  range: { offset: number; limit: number | undefined } | undefined;
  /** PostgREST's db-max-rows (`[api] max_rows` in config.toml). */
  maxRows: number;
  /** PostgREST's db-aggregates-enabled: `col.sum()`, `count()`… are refused without it. */
  aggregates: boolean;
};

const hasAggregate = (node: Node): boolean =>
  node.items.some((i) => i.kind === 'aggregate') || node.embeds.some((e) => hasAggregate(e.node));

const aggregatesDisabled = () =>
  apiError(400, 'PGRST123', 'Use of aggregate functions is not allowed');

function bodyExpr(rep: Representation, head: boolean): string {
  if (head) return 'null';
  if (rep.kind === 'csv') return CSV_BODY;
  const agg =
    rep.kind === 'object' ? `(json_agg(pgrst_t)->0)` : `coalesce(json_agg(pgrst_t), '[]')`;
  return `${rep.stripNulls ? `json_strip_nulls(${agg})` : agg}::text`;
}

/**
 * PostgREST's CSV, built as it builds it: the first row's keys, then each row as PostgreSQL
 * prints a record without its parentheses — so quoting, NULLs (empty), booleans (t/f) and
 * jsonb are exactly PostgreSQL's.
 */
const CSV_BODY =
  `coalesce((select string_agg(pgrst_k, ',') from json_object_keys(json_agg(pgrst_t)->0) pgrst_k), '')` +
  ` || chr(10) || coalesce(string_agg(substring(pgrst_t::text, 2, length(pgrst_t::text) - 2), chr(10)), '')`;

/** `limit`/`offset` win over a `Range` header; PostgREST's db-max-rows caps every page. */
function paging(node: Node, { range, maxRows }: ReadOptions) {
  const offset = node.offset ?? range?.offset ?? 0;
  const requested = node.limit ?? range?.limit;
  return { offset, limit: Math.min(requested ?? maxRows, maxRows) };
}

/** GET/HEAD on a table or view, and the row-returning part of an RPC. */
export function readPlan(
  from: string,
  node: Node,
  params: Params,
  opts: ReadOptions,
): Result<Plan> {
  // The parameters `from` itself uses (an RPC's arguments) come first; the planner's count
  // reuses them with a WHERE of its own.
  if (!opts.aggregates && hasAggregate(node)) return fail(aggregatesDisabled());
  const fromParams = params.values.slice();
  const r = renderRoot('pgrst_0', node, params);
  if (!r.ok) return r;
  const page = paging(node, opts);
  const count = opts.prefer.count;
  const total =
    count === 'exact' || count === 'estimated'
      ? `(select count(*) from ${from} pgrst_0${r.value.where})`
      : 'null';
  let explain: { sql: string; params: unknown[]; maxRows: number } | undefined;
  if (count === 'planned' || count === 'estimated') {
    const own = new Params(fromParams);
    const where = whereSql('pgrst_0', node, own);
    if (!where.ok) return where;
    const clause = where.value.length ? ` where ${where.value.join(' and ')}` : '';
    explain = {
      sql: `explain (format json) select 1 from ${from} pgrst_0${clause}`,
      params: own.values,
      maxRows: opts.maxRows,
    };
  }
  const sql =
    `select ${total} as total, count(*) as page, ${bodyExpr(opts.representation, opts.head)} as body, null as inserted ` +
    `from (select ${r.value.select} from ${from} pgrst_0${r.value.where}${r.value.group}${r.value.order}` +
    ` limit ${params.add(page.limit)} offset ${params.add(page.offset)}) pgrst_t`;
  return ok({ shape: 'rows', sql, params: params.values, offset: page.offset, explain, count });
}

/** `Plan Rows` of the top node of an `explain (format json)` result. */
function plannedRows(result: QueryResult | undefined): number {
  const cell = Object.values(result?.rows[0] ?? {})[0];
  const parsed = (typeof cell === 'string' ? JSON.parse(cell) : cell) as
    [{ Plan?: { 'Plan Rows'?: number } }] | undefined;
  return Number(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0);
}

/**
 * The total of a read as PostgREST reports it: the planner's estimate for `count=planned`;
 * for `count=estimated` the exact count up to db-max-rows, the larger of both beyond it.
 */
export function totalOf(plan: Plan, explain: QueryResult | undefined, exact: string | null) {
  if (plan.shape !== 'rows' || !plan.explain) return exact;
  const planned = plannedRows(explain);
  if (plan.count === 'planned') return String(planned);
  const counted = Number(exact ?? 0);
  return String(counted > plan.explain.maxRows ? Math.max(planned, counted) : counted);
}

const columnMissing = (table: string, column: string): ApiError =>
  apiError(
    400,
    'PGRST204',
    `Could not find the '${column}' column of '${table}' in the schema cache`,
  );

function checkColumns(relation: Relation, columns: Iterable<string>): Result<void> {
  for (const c of columns)
    if (!relation.columns.has(c)) return fail(columnMissing(relation.name, c));
  return ok(undefined);
}

/** `columns=a,"b"` and `on_conflict=a,b`: comma lists of optionally quoted names. */
export function nameList(param: string, text: string): Result<string[]> {
  const names: string[] = [];
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|([^,"]+?))\s*(?:,|$)/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < text.length && (m = re.exec(text)))
    names.push(m[1]?.replace(/\\(.)/g, '$1') ?? m[2] ?? '');
  if (re.lastIndex < text.length || names.some((n) => !n)) {
    return fail(parseError(param, text, `unexpected input at position ${re.lastIndex + 1}`));
  }
  return ok(names);
}

export type WriteOptions = {
  prefer: Preferences;
  representation: Representation;
  wantRows: boolean;
};

function writeOutput(
  node: Node,
  params: Params,
  dml: string,
  opts: WriteOptions,
  inserted: string,
): Result<Plan> {
  const r = renderRoot('pgrst_0', node, params);
  if (!r.ok) return r;
  const sql =
    `with pgrst_source as (${dml}) select null as total, count(*) as page, ${bodyExpr(opts.representation, false)} as body, ` +
    `${inserted} as inserted from (select ${r.value.select} from pgrst_source pgrst_0) pgrst_t`;
  return ok({ shape: 'rows', sql, params: params.values, offset: 0 });
}

function toRows(body: unknown): Result<Record<string, unknown>[]> {
  const rows: unknown[] = Array.isArray(body) ? body : [body];
  for (const r of rows) {
    if (r === null || typeof r !== 'object' || Array.isArray(r)) {
      return fail(
        apiError(
          400,
          'PGRST102',
          'All object keys must match',
          'Expected a JSON object or an array of JSON objects',
        ),
      );
    }
  }
  return ok(rows as Record<string, unknown>[]);
}

/** Every key the rows carry, in the order first seen: the columns of a payload. */
function payloadColumns(rows: readonly Record<string, unknown>[]): string[] {
  if (rows.length === 1) return Object.keys(rows[0] as Record<string, unknown>);
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

/**
 * The JSON rows an INSERT reads. With `Prefer: missing=default` a row lacking a key takes the
 * column's DEFAULT, as PostgREST does it: every defaulted column's default is evaluated for
 * every row and the row's own keys laid over them (so a sequence advances once per row and
 * column, as on PostgREST), in one statement that keeps the rows' order.
 */
function insertSource(
  relation: Relation,
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
  params: Params,
  missingDefault: boolean,
): string {
  const data = params.add(JSON.stringify(rows));
  const defaults = missingDefault
    ? columns.flatMap((c) => {
        const expr = relation.columns.get(c)?.default;
        return expr ? [`${params.add(c)}::text, ${expr}`] : [];
      })
    : [];
  if (!defaults.length) return `${data}::json`;
  return (
    `(select coalesce(json_agg(jsonb_build_object(${defaults.join(', ')}) || pgrst_e order by pgrst_o), '[]')` +
    ` from jsonb_array_elements(${data}::jsonb) with ordinality as pgrst_x(pgrst_e, pgrst_o))`
  );
}

/** INSERT … SELECT of `columns` from the JSON rows of `source`, with its ON CONFLICT clause. */
function insertText(
  table: string,
  columns: readonly string[],
  source: string,
  resolution: Preferences['resolution'],
  conflictColumns: readonly string[],
): string {
  const quoted = columns.map(ident).join(', ');
  let onConflict = '';
  if (resolution) {
    const target = ` on conflict (${conflictColumns.map(ident).join(', ')})`;
    onConflict =
      resolution === 'merge-duplicates' && columns.length
        ? `${target} do update set ${columns.map((c) => `${ident(c)} = excluded.${ident(c)}`).join(', ')}`
        : `${target} do nothing`;
  }
  return (
    `insert into ${table} as pgrst_target ${columns.length ? `(${quoted})` : ''} ` +
    `select ${quoted} from json_populate_recordset(null::${table}, ${source})${onConflict}`
  );
}

/** Texts of the INSERTs whose rows are the bound `$1` alone, per relation and shape. */
const insertTexts = new WeakMap<Relation, Map<string, string>>();
const MAX_INSERT_TEXTS = 64;

/**
 * The INSERT of `columns` from the JSON rows bound as `$1`, as `insertText` writes it, kept
 * per relation (a schema reload brings new relations) and shape: a client sends the same few
 * shapes over and over, and the same text object also finds its prepared statement's name
 * without being hashed again (db/prepared.ts).
 */
function sameInsertText(
  cache: SchemaCache,
  relation: Relation,
  columns: readonly string[],
  resolution: Preferences['resolution'],
  conflictColumns: readonly string[],
): string {
  // Identifiers cannot hold NUL, so the parts cannot run into each other.
  const key = `${resolution ?? ''}\0\0${conflictColumns.join('\0')}\0\0${columns.join('\0')}`;
  let texts = insertTexts.get(relation);
  if (!texts) insertTexts.set(relation, (texts = new Map<string, string>()));
  let text = texts.get(key);
  if (text === undefined) {
    const table = `${ident(cache.schema)}.${ident(relation.name)}`;
    text = insertText(table, columns, '$1::json', resolution, conflictColumns);
    if (texts.size >= MAX_INSERT_TEXTS) texts.clear();
    texts.set(key, text);
  }
  return text;
}

export function insertPlan(
  cache: SchemaCache,
  relation: Relation,
  query: URLSearchParams,
  body: unknown,
  opts: WriteOptions,
): Result<Plan> {
  const rowsR = toRows(body);
  if (!rowsR.ok) return rowsR;
  const rows = rowsR.value;
  const columnsParam = query.get('columns');
  let columns: string[];
  if (columnsParam !== null) {
    const list = nameList('columns', columnsParam);
    if (!list.ok) return list;
    columns = list.value;
  } else columns = payloadColumns(rows);
  const checked = checkColumns(relation, columns);
  if (!checked.ok) return checked;

  let conflictColumns: string[] = [];
  if (opts.prefer.resolution) {
    const target = query.get('on_conflict');
    const list = target === null ? ok(relation.pk) : nameList('on_conflict', target);
    if (!list.ok) return list;
    const c = checkColumns(relation, list.value);
    if (!c.ok) return c;
    if (!list.value.length)
      return fail(
        apiError(
          400,
          'PGRST100',
          'on_conflict requires a primary key or the on_conflict parameter',
        ),
      );
    conflictColumns = list.value;
  }

  const params = new Params();
  let insert: string;
  if (opts.prefer.missingDefault) {
    const table = `${ident(cache.schema)}.${ident(relation.name)}`;
    const source = insertSource(relation, columns, rows, params, true);
    insert = insertText(table, columns, source, opts.prefer.resolution, conflictColumns);
  } else {
    params.add(JSON.stringify(rows));
    insert = sameInsertText(cache, relation, columns, opts.prefer.resolution, conflictColumns);
  }
  if (!opts.wantRows)
    return ok({ shape: 'affected', statements: [{ sql: insert, params: params.values }] });

  const node = planQuery(cache, relationSource(relation, cache.schema), selectOnly(query));
  if (!node.ok) return node;
  // xmax = 0 tells a fresh row from one merged by ON CONFLICT; views have no system columns.
  const inserted =
    opts.prefer.resolution === 'merge-duplicates' && relation.kind === 'table'
      ? '(pgrst_target.xmax = 0)'
      : 'true';
  const returning = ` returning pgrst_target.*, ${inserted} as pgrst_inserted`;
  return writeOutput(
    node.value,
    params,
    `${insert}${returning}`,
    opts,
    '(select count(*) from pgrst_source where pgrst_inserted)',
  );
}

const relationSource = (r: Relation, schema: string): Source => ({
  schema,
  name: r.name,
  columns: r.columns,
  table: true,
  computed: r.computed,
});

/** Writes filter with every query parameter except the embedding `select`. */
function selectOnly(query: URLSearchParams): URLSearchParams {
  const select = query.get('select');
  return new URLSearchParams(select === null ? [] : [['select', select]]);
}

function filtersOnly(query: URLSearchParams): URLSearchParams {
  const q = new URLSearchParams();
  for (const [k, v] of query)
    if (k !== 'select' && k !== 'columns' && k !== 'on_conflict') q.append(k, v);
  return q;
}

export function updateOrDeletePlan(
  cache: SchemaCache,
  relation: Relation,
  query: URLSearchParams,
  body: Record<string, unknown> | undefined,
  opts: WriteOptions,
): Result<Plan> {
  const source = relationSource(relation, cache.schema);
  const filters = planQuery(cache, source, filtersOnly(query));
  if (!filters.ok) return filters;
  const params = new Params();
  const r = renderRoot('pgrst_0', { ...filters.value, items: [] }, params);
  if (!r.ok) return r;
  const table = `${ident(cache.schema)}.${ident(relation.name)}`;
  let dml: string;
  if (body) {
    const columns = Object.keys(body);
    const checked = checkColumns(relation, columns);
    if (!checked.ok) return checked;
    const data = params.add(JSON.stringify(body));
    dml =
      `update ${table} pgrst_0 set ${columns.map((c) => `${ident(c)} = pgrst_body.${ident(c)}`).join(', ')} ` +
      `from (select * from json_populate_record(null::${table}, ${data}::json)) pgrst_body${r.value.where}`;
  } else dml = `delete from ${table} pgrst_0${r.value.where}`;
  if (!opts.wantRows)
    return ok({ shape: 'affected', statements: [{ sql: dml, params: params.values }] });
  const node = planQuery(cache, source, selectOnly(query));
  if (!node.ok) return node;
  return writeOutput(node.value, params, `${dml} returning pgrst_0.*`, opts, 'null');
}
