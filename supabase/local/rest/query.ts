import { apiError, fail, ok, parseError, type Result } from './errors.ts';
import {
  parseFilter,
  parseKey,
  parseOrder,
  parseSelect,
  parseTree,
  type Condition,
  type OrderTerm,
  type SelectItem,
} from './grammar.ts';
import { findRelationship, type Relationship } from './relationships.ts';
import type { SchemaCache } from './schema-cache.ts';
import type { Source } from './sql.ts';

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

export const relationSource = (cache: SchemaCache, name: string): Source | undefined => {
  const r = cache.relations.get(name);
  return (
    r && {
      schema: cache.schema,
      name: r.name,
      columns: r.columns,
      table: true,
      computed: r.computed,
    }
  );
};

function buildNode(
  cache: SchemaCache,
  source: Source,
  items: SelectItem[],
  depth = 0,
): Result<Node> {
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
    const alias = `${target.name}_${depth + 1}`;
    const child = buildNode(cache, { ...target, alias }, item.items, depth + 1);
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

/** Query parameters that are not filters; `skip` names more (RPC arguments). */
const RESERVED = new Set(['select', 'columns', 'on_conflict']);
const NOTHING: ReadonlySet<string> = new Set();

const nonNegative = (key: string, v: string): Result<number> =>
  /^\d+$/.test(v)
    ? ok(Number(v))
    : fail(parseError(key, v, `unexpected "${v}" expecting a non-negative integer`));

export function findEmbed(node: Node, name: string): Embed | undefined {
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
  skip: ReadonlySet<string> = NOTHING,
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
