import { apiError, fail, ok, parseError, type Result } from './errors.ts';
import { conditionSql } from './filters.ts';
import type { Field, SelectItem } from './grammar.ts';
import { findEmbed, type Embed, type Node } from './query.ts';
import { isToOne, type Relationship } from './relationships.ts';
import { columnExpr, ident, type Params, type Source } from './sql.ts';

function joinSql(
  schema: string,
  rel: Exclude<Relationship, { kind: 'computed' }>,
  parent: string,
  child: string,
  params: Params,
): string {
  const pairs = (left: string, lcols: string[], right: string, rcols: string[]) =>
    lcols.map((c, i) => `${left}.${ident(c)} = ${right}.${ident(rcols[i] ?? '')}`).join(' and ');
  if (rel.kind === 'm2o') return pairs(parent, rel.fk.columns, child, rel.fk.refColumns);
  if (rel.kind === 'o2m') return pairs(child, rel.fk.columns, parent, rel.fk.refColumns);
  const j = params.alias();
  return `exists (select 1 from ${ident(schema)}.${ident(rel.junction)} ${j} where ${pairs(j, rel.source.columns, parent, rel.source.refColumns)} and ${pairs(j, rel.fk.columns, child, rel.fk.refColumns)})`;
}

/**
 * `<source> <child> where <join>` of an embedded level: its table joined to the parent row,
 * or for a computed relationship the function called with the parent row.
 */
function joinedFrom(
  rel: Relationship,
  target: Source,
  parent: string,
  child: string,
  params: Params,
): string {
  const schema = ident(target.schema);
  if (rel.kind === 'computed') return `${schema}.${ident(rel.fn)}(${parent}) ${child} where true`;
  const join = joinSql(target.schema, rel, parent, child, params);
  return `${schema}.${ident(target.name)} ${child} where ${join}`;
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
    const from = joinedFrom(e.relationship, e.node.source, alias, child, params);
    const test = `exists (select 1 from ${[from, ...inner.value].join(' and ')})`;
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
      expr = `(select ${col.value.sql} from ${joinedFrom(embed.relationship, embed.node.source, alias, child, params)})`;
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

/** `fn(arg)`, kept apart so a spread can hoist it to its parent's level. */
type AggregateCall = { fn: string; arg: string; resultCast: string | undefined };

/**
 * One output of a level; `aggregate` ones make the others its GROUP BY, `embed` ones are an
 * embedded resource's JSON (grouped as jsonb, json having no equality).
 */
type Output = { expr: string; name: string; aggregate?: AggregateCall; embed?: boolean };

function aggregateSql({ fn, arg, resultCast }: AggregateCall): string {
  const call = `${fn}(${arg})`;
  return resultCast ? `(${call})::${resultCast}` : call;
}

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
    } else if (item.kind === 'aggregate') {
      const r = aggregateOutput(alias, node, item, params);
      if (!r.ok) return r;
      out.push(r.value);
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
  return ok(groupableEmbeds(out));
}

/**
 * Beside an aggregate, each embedded resource is a grouping column, as in PostgREST: its JSON
 * becomes jsonb (as PostgREST always renders embeds), so rows group by the related data.
 */
function groupableEmbeds(outputs: Output[]): Output[] {
  if (!outputs.some((o) => o.aggregate)) return outputs;
  return outputs.map((o) => (o.embed ? { ...o, expr: `(${o.expr})::jsonb` } : o));
}

function aggregateOutput(
  alias: string,
  node: Node,
  item: Extract<SelectItem, { kind: 'aggregate' }>,
  params: Params,
): Result<Output> {
  let arg = '*';
  if (item.field) {
    const col = columnExpr(alias, node.source, item.field, params);
    if (!col.ok) return col;
    arg = item.cast ? `(${col.value.sql})::${item.cast}` : col.value.sql;
  }
  const aggregate = { fn: item.fn, arg, resultCast: item.resultCast };
  return ok({ expr: aggregateSql(aggregate), name: item.alias ?? item.fn, aggregate });
}

/**
 * ` group by …` of a level whose outputs mix aggregates and plain columns, by position: an
 * embed's output is a whole subquery, which the position names without repeating it.
 */
export function groupSql(outputs: readonly Output[]): string {
  if (!outputs.some((o) => o.aggregate)) return '';
  const plain = outputs.flatMap((o, i) => (o.aggregate ? [] : [String(i + 1)]));
  return plain.length ? ` group by ${plain.join(', ')}` : '';
}

/**
 * A to-one spread's outputs as the parent's own columns: plain ones read the related row, and
 * aggregates are hoisted to aggregate it over the parent's groups (PostgREST's spread
 * aggregates); `count()` counts the parent rows that have a related row.
 */
function spreadToOne(cols: readonly Output[], from: string): Output[] {
  const related = (expr: string) => `(select ${expr} ${from} limit 1)`;
  return cols.map((c) => {
    if (!c.aggregate) return { expr: related(c.expr), name: c.name, embed: c.embed };
    const arg = related(c.aggregate.arg === '*' ? '1' : c.aggregate.arg);
    const aggregate = { ...c.aggregate, arg };
    return { expr: aggregateSql(aggregate), name: c.name, aggregate };
  });
}

function embedOutputs(parent: string, e: Embed, params: Params): Result<Output[]> {
  const child = params.alias();
  const where = whereSql(child, e.node, params);
  if (!where.ok) return where;
  const from = `from ${[joinedFrom(e.relationship, e.node.source, parent, child, params), ...where.value].join(' and ')}`;
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
        embed: true,
      },
    ]);
  }
  const cols = projection(child, e.node, params);
  if (!cols.ok) return cols;
  const list = cols.value.map((c) => `${c.expr} as ${ident(c.name)}`).join(', ');
  const group = groupSql(cols.value);
  if (e.spread && isToOne(e.relationship)) return ok(spreadToOne(cols.value, from));
  if (isToOne(e.relationship)) {
    return ok([
      {
        expr: `(select row_to_json(pgrst_row) from (select ${list} ${from}${group} limit 1) pgrst_row)`,
        name: e.output,
        embed: true,
      },
    ]);
  }
  const order = orderSql(child, e.node, params);
  if (!order.ok) return order;
  if (e.spread) {
    // A to-many spread: each column becomes the array of its values, in the embed's order.
    return ok(
      cols.value.map((c) => ({
        expr: `(select coalesce(json_agg(${c.expr}${order.value}), '[]') ${from})`,
        name: c.name,
        embed: true,
      })),
    );
  }
  const page =
    (e.node.limit !== undefined ? ` limit ${params.add(e.node.limit)}` : '') +
    (e.node.offset !== undefined ? ` offset ${params.add(e.node.offset)}` : '');
  return ok([
    {
      expr: `(select coalesce(json_agg(pgrst_row), '[]') from (select ${list} ${from}${group}${order.value}${page}) pgrst_row)`,
      name: e.output,
      embed: true,
    },
  ]);
}

export type Rendered = { select: string; where: string; group: string; order: string };

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
    group: groupSql(cols.value),
    order: order.value,
  });
}
