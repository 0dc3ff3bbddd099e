import {
  apiError,
  columnNotFound,
  fail,
  ok,
  parseError,
  type ApiError,
  type Result,
} from './errors.ts';
import {
  parseFilter,
  parseKey,
  parseOrder,
  parseSelect,
  parseTree,
  type Condition,
  type Field,
  type Filter,
  type OrderTerm,
  type SelectItem,
} from './grammar.ts';
import { findRelationship, isToOne, type Relationship } from './relationships.ts';
import type { Column, SchemaCache } from './schema-cache.ts';

/** The columns a level of the request reads from: a table, a view or a function's rows. */
export type Source = { name: string; columns: Map<string, Column>; table: boolean };

/** One level of the requested tree: the root resource or an embedded one. */
export type Node = {
  source: Source;
  items: SelectItem[];
  conditions: Condition[];
  order: OrderTerm[];
  limit: number | undefined;
  offset: number | undefined;
  embeds: Embed[];
};

export type Embed = {
  name: string;
  output: string;
  relationship: Relationship;
  join: 'inner' | 'left';
  spread: boolean;
  node: Node;
  /** `rel=is.null` / `rel=not.is.null` at the parent's level. */
  exists: boolean | undefined;
};

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Bound parameters of one statement; values never enter the SQL text. */
export class Params {
  readonly values: unknown[] = [];
  private aliases = 0;
  /** Table aliases unique within the statement, so self-joins and nesting never collide. */
  alias(): string {
    return `pgrst_${++this.aliases}`;
  }
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export const relationSource = (cache: SchemaCache, name: string): Source | undefined => {
  const r = cache.relations.get(name);
  return r && { name: r.name, columns: r.columns, table: true };
};

function buildNode(cache: SchemaCache, source: Source, items: SelectItem[]): Result<Node> {
  const node: Node = {
    source,
    items,
    conditions: [],
    order: [],
    limit: undefined,
    offset: undefined,
    embeds: [],
  };
  for (const item of items) {
    if (item.kind !== 'embed') continue;
    const rel = findRelationship(cache, source.name, item.name, item.hint);
    if (!rel.ok) return rel;
    const target = relationSource(cache, rel.value.target);
    if (!target)
      return fail(
        apiError(
          400,
          'PGRST200',
          `Could not find a relationship between '${source.name}' and '${item.name}' in the schema cache`,
        ),
      );
    if (item.spread && !isToOne(rel.value)) {
      return fail(
        apiError(
          400,
          'PGRST119',
          `A spread operation on '${item.name}' is not possible`,
          `'${source.name}' and '${item.name}' do not form a many-to-one or one-to-one relationship`,
        ),
      );
    }
    const child = buildNode(cache, target, item.items);
    if (!child.ok) return child;
    node.embeds.push({
      name: item.name,
      output: item.alias ?? item.name,
      relationship: rel.value,
      join: item.join,
      spread: item.spread,
      node: child.value,
      exists: undefined,
    });
  }
  return ok(node);
}

/** Query parameters that are not filters; `extra` names more (RPC arguments). */
const RESERVED = new Set(['select', 'columns', 'on_conflict']);

const nonNegative = (key: string, v: string): Result<number> =>
  /^\d+$/.test(v)
    ? ok(Number(v))
    : fail(parseError(key, v, `unexpected "${v}" expecting a non-negative integer`));

function findEmbed(node: Node, name: string): Embed | undefined {
  return node.embeds.find((e) => e.output === name) ?? node.embeds.find((e) => e.name === name);
}

/**
 * Builds the request tree from `select` and the remaining query parameters (filters, logic
 * trees, order, limit, offset — each possibly aimed at an embed by a dotted prefix).
 */
export function planQuery(
  cache: SchemaCache,
  source: Source,
  params: URLSearchParams,
  skip: ReadonlySet<string> = new Set(),
): Result<Node> {
  const selectText = params.get('select') ?? '*';
  const select = parseSelect(selectText || '*');
  if (!select.ok) return fail(parseError('select', selectText, select.details));
  const built = buildNode(cache, source, select.value);
  if (!built.ok) return built;
  const root = built.value;

  for (const [key, value] of params) {
    if (RESERVED.has(key) || skip.has(key)) continue;
    const parsedKey = parseKey(key);
    if (!parsedKey.ok) return fail(parseError('filter', key, parsedKey.details));
    const segments = parsedKey.value;
    const last = segments.at(-1);
    if (!last) continue;
    let negatedTree = false;
    let pathLength = segments.length - 1;
    const beforeLast = segments.at(-2);
    if (
      (last.name === 'or' || last.name === 'and') &&
      beforeLast?.name === 'not' &&
      !beforeLast.path.length
    ) {
      negatedTree = true;
      pathLength--;
    }
    let node = root;
    for (const seg of segments.slice(0, pathLength)) {
      const embed = seg.path.length ? undefined : findEmbed(node, seg.name);
      if (!embed) {
        return fail(
          apiError(
            400,
            'PGRST108',
            `'${seg.name}' is not an embedded resource in this request`,
            null,
            `Verify that '${seg.name}' is included in the 'select' query parameter.`,
          ),
        );
      }
      node = embed.node;
    }
    const keyword = last.path.length ? undefined : last.name;
    if (keyword === 'order') {
      const order = parseOrder(value);
      if (!order.ok) return fail(parseError('order', value, order.details));
      node.order.push(...order.value);
    } else if (keyword === 'limit' || keyword === 'offset') {
      const n = nonNegative(key, value);
      if (!n.ok) return n;
      node[keyword] = n.value;
    } else if (keyword === 'or' || keyword === 'and') {
      const tree = parseTree(keyword, negatedTree, value);
      if (!tree.ok) return fail(parseError('logic tree', value, tree.details));
      node.conditions.push(tree.value);
    } else {
      const filter = parseFilter(last, value);
      if (!filter.ok) return fail(parseError('filter', value, filter.details));
      const embed = keyword ? findEmbed(node, keyword) : undefined;
      if (embed && !node.source.columns.has(keyword ?? '')) {
        const f = filter.value;
        if (
          f.op !== 'is' ||
          typeof f.value !== 'string' ||
          !['null', 'not_null'].includes(f.value.toLowerCase())
        ) {
          return fail(
            parseError(
              'filter',
              value,
              'only is.null or not.is.null can filter on an embedded resource',
            ),
          );
        }
        embed.exists = (f.value.toLowerCase() === 'null') === f.negated;
      } else node.conditions.push(filter.value);
    }
  }
  return ok(root);
}

const TEXT_TYPES = /^(text|character varying|character|citext|name)(\(|$)/;

function columnExpr(
  alias: string,
  source: Source,
  field: Field,
  params: Params,
): Result<{ sql: string; text: boolean }> {
  const column = source.columns.get(field.name);
  if (!column) return fail(columnNotFound(source.name, field.name));
  let sql = `${alias}.${ident(field.name)}`;
  for (const step of field.path) {
    const key = /^-?\d+$/.test(step.key)
      ? `${params.add(Number(step.key))}::int`
      : `${params.add(step.key)}::text`;
    sql = `(${sql}${step.arrow}${key})`;
  }
  const lastArrow = field.path.at(-1)?.arrow;
  return ok({ sql, text: lastArrow ? lastArrow === '->>' : TEXT_TYPES.test(column.type) });
}

const COMPARE: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxl: '&<',
  nxr: '&>',
  adj: '-|-',
};
const FTS: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
};
const IS_VALUES: Record<string, string> = {
  null: 'null',
  not_null: 'not null',
  true: 'true',
  false: 'false',
  unknown: 'unknown',
};

function filterSql(alias: string, source: Source, f: Filter, params: Params): Result<string> {
  const col = columnExpr(alias, source, f.field, params);
  if (!col.ok) return col;
  const { sql: expr, text } = col.value;
  const likeValue = (v: string) =>
    f.op === 'like' || f.op === 'ilike' ? v.replace(/\*/g, '%') : v;
  let sql: string;
  if (f.op === 'is') {
    const word = IS_VALUES[String(f.value).toLowerCase()];
    if (!word)
      return fail(
        parseError(
          'filter',
          `is.${String(f.value)}`,
          'expecting null, not_null, true, false or unknown',
        ),
      );
    sql = `${expr} is ${word}`;
  } else if (f.op === 'in') {
    const list = f.value as string[];
    sql = list.length ? `${expr} in (${list.map((v) => params.add(v)).join(', ')})` : 'false';
  } else if (f.op === 'isdistinct') {
    // `isdistinct.null` (supabase-js' isDistinct(c, null)) compares with SQL NULL.
    sql = `${expr} is distinct from ${f.value === 'null' ? 'null' : params.add(f.value)}`;
  } else if (FTS[f.op]) {
    const query = f.modifier
      ? `${FTS[f.op]}(${params.add(f.modifier)}::regconfig, ${params.add(f.value)})`
      : `${FTS[f.op]}(${params.add(f.value)})`;
    sql = `${expr} @@ ${query}`;
  } else {
    const operator = COMPARE[f.op] ?? '=';
    const textual = ['like', 'ilike', 'match', 'imatch'].includes(f.op);
    const lhs = textual && !text ? `${expr}::text` : expr;
    if (Array.isArray(f.value)) {
      // eq(any).{a,b} and like(all).{…}: one comparison per value keeps each value typed by the column.
      const each = f.value.map((v) => `${lhs} ${operator} ${params.add(likeValue(v))}`);
      sql = each.length
        ? `(${each.join(f.modifier === 'all' ? ' and ' : ' or ')})`
        : f.modifier === 'all'
          ? 'true'
          : 'false';
    } else {
      sql = `${lhs} ${operator} ${params.add(likeValue(f.value))}`;
    }
  }
  return ok(f.negated ? `not (${sql})` : sql);
}

function conditionSql(alias: string, source: Source, c: Condition, params: Params): Result<string> {
  if (c.kind === 'filter') return filterSql(alias, source, c, params);
  const parts: string[] = [];
  for (const child of c.children) {
    const s = conditionSql(alias, source, child, params);
    if (!s.ok) return s;
    parts.push(s.value);
  }
  const joined = `(${parts.join(c.op === 'and' ? ' and ' : ' or ')})`;
  return ok(c.negated ? `not ${joined}` : joined);
}

function joinSql(rel: Relationship, parent: string, child: string, params: Params): string {
  const pairs = (left: string, lcols: string[], right: string, rcols: string[]) =>
    lcols.map((c, i) => `${left}.${ident(c)} = ${right}.${ident(rcols[i] ?? '')}`).join(' and ');
  if (rel.kind === 'm2o') return pairs(parent, rel.fk.columns, child, rel.fk.refColumns);
  if (rel.kind === 'o2m') return pairs(child, rel.fk.columns, parent, rel.fk.refColumns);
  const j = params.alias();
  return `exists (select 1 from public.${ident(rel.junction)} ${j} where ${pairs(j, rel.source.columns, parent, rel.source.refColumns)} and ${pairs(j, rel.fk.columns, child, rel.fk.refColumns)})`;
}

/** WHERE of a level: its filters plus existence tests for `!inner` and `rel=is.null` embeds. */
export function whereSql(alias: string, node: Node, params: Params): Result<string[]> {
  const parts: string[] = [];
  for (const c of node.conditions) {
    const s = conditionSql(alias, node.source, c, params);
    if (!s.ok) return s;
    parts.push(s.value);
  }
  for (const e of node.embeds) {
    if (e.join !== 'inner' && e.exists === undefined) continue;
    const child = params.alias();
    const inner = whereSql(child, e.node, params);
    if (!inner.ok) return inner;
    const test = `exists (select 1 from public.${ident(e.node.source.name)} ${child} where ${[joinSql(e.relationship, alias, child, params), ...inner.value].join(' and ')})`;
    if (e.join === 'inner') parts.push(test);
    if (e.exists !== undefined) parts.push(e.exists ? test : `not ${test}`);
  }
  return ok(parts);
}

function orderSql(alias: string, node: Node, params: Params): Result<string> {
  const terms: string[] = [];
  for (const t of node.order) {
    let expr: string;
    if (t.relation !== undefined) {
      const embed = findEmbed(node, t.relation);
      if (!embed || !isToOne(embed.relationship)) {
        return fail(
          apiError(
            400,
            'PGRST118',
            `A related order on '${t.relation}' is not possible`,
            `'${node.source.name}' and '${t.relation}' do not form a many-to-one or one-to-one relationship`,
          ),
        );
      }
      const child = params.alias();
      const col = columnExpr(child, embed.node.source, t.field, params);
      if (!col.ok) return col;
      expr = `(select ${col.value.sql} from public.${ident(embed.node.source.name)} ${child} where ${joinSql(embed.relationship, alias, child, params)})`;
    } else {
      const col = columnExpr(alias, node.source, t.field, params);
      if (!col.ok) return col;
      expr = col.value.sql;
    }
    terms.push(
      `${expr}${t.direction ? ` ${t.direction}` : ''}${t.nulls ? ` nulls ${t.nulls}` : ''}`,
    );
  }
  return ok(terms.length ? ` order by ${terms.join(', ')}` : '');
}

type Output = { expr: string; name: string };

function outputName(field: Field, alias: string | undefined): string {
  return alias ?? field.path.at(-1)?.key ?? field.name;
}

/** The select list of a level as (expression, output key) pairs. */
export function projection(alias: string, node: Node, params: Params): Result<Output[]> {
  const out: Output[] = [];
  let embedIndex = 0;
  for (const item of node.items) {
    if (item.kind === 'star') {
      for (const name of node.source.columns.keys())
        out.push({ expr: `${alias}.${ident(name)}`, name });
    } else if (item.kind === 'column') {
      const col = columnExpr(alias, node.source, item.field, params);
      if (!col.ok) return col;
      out.push({
        expr: item.cast ? `(${col.value.sql})::${item.cast}` : col.value.sql,
        name: outputName(item.field, item.alias),
      });
    } else if (item.kind === 'count') {
      return fail(
        parseError('select', 'count()', 'count() is only supported inside an embedded resource'),
      );
    } else {
      const embed = node.embeds[embedIndex++];
      if (!embed) continue;
      const r = embedOutputs(alias, embed, params);
      if (!r.ok) return r;
      out.push(...r.value);
    }
  }
  return ok(out);
}

function embedOutputs(parent: string, e: Embed, params: Params): Result<Output[]> {
  const child = params.alias();
  const where = whereSql(child, e.node, params);
  if (!where.ok) return where;
  const from = `from public.${ident(e.node.source.name)} ${child} where ${[joinSql(e.relationship, parent, child, params), ...where.value].join(' and ')}`;
  const items = e.node.items;
  if (items.length === 0) return ok([]);
  const countItem = items.find((i) => i.kind === 'count');
  if (countItem) {
    if (items.length > 1)
      return fail(
        parseError(
          'select',
          e.name,
          'count cannot be combined with other columns in an embedded resource',
        ),
      );
    const key = (countItem.kind === 'count' && countItem.alias) || 'count';
    const obj = `json_build_object(${params.add(key)}::text, count(*))`;
    return ok([
      {
        expr: `(select ${isToOne(e.relationship) ? obj : `json_build_array(${obj})`} ${from})`,
        name: e.output,
      },
    ]);
  }
  const cols = projection(child, e.node, params);
  if (!cols.ok) return cols;
  const list = cols.value.map((c) => `${c.expr} as ${ident(c.name)}`).join(', ');
  if (e.spread)
    return ok(
      cols.value.map((c) => ({ expr: `(select ${c.expr} ${from} limit 1)`, name: c.name })),
    );
  if (isToOne(e.relationship)) {
    return ok([
      {
        expr: `(select row_to_json(pgrst_row) from (select ${list} ${from} limit 1) pgrst_row)`,
        name: e.output,
      },
    ]);
  }
  const order = orderSql(child, e.node, params);
  if (!order.ok) return order;
  const page =
    (e.node.limit !== undefined ? ` limit ${params.add(e.node.limit)}` : '') +
    (e.node.offset !== undefined ? ` offset ${params.add(e.node.offset)}` : '');
  return ok([
    {
      expr: `(select coalesce(json_agg(pgrst_row), '[]') from (select ${list} ${from}${order.value}${page}) pgrst_row)`,
      name: e.output,
    },
  ]);
}

export type Rendered = { select: string; where: string; order: string };

/** Renders the root level against `alias`, which the caller binds to its FROM source. */
export function renderRoot(alias: string, node: Node, params: Params): Result<Rendered> {
  const cols = projection(alias, node, params);
  if (!cols.ok) return cols;
  const where = whereSql(alias, node, params);
  if (!where.ok) return where;
  const order = orderSql(alias, node, params);
  if (!order.ok) return order;
  return ok({
    select: cols.value.map((c) => `${c.expr} as ${ident(c.name)}`).join(', '),
    where: where.value.length ? ` where ${where.value.join(' and ')}` : '',
    order: order.value,
  });
}

export type { ApiError };
