import { apiError, fail, ok, type Result } from './errors.ts';
import { fuzzyBest, fuzzyMatches } from './fuzzy.ts';
import type { ForeignKey } from './foreign-key.ts';
import type { SchemaCache } from './schema-cache.ts';

/** How an embedded relation joins its parent, read from foreign keys as PostgREST does. */
export type Relationship =
  | { kind: 'm2o'; fk: ForeignKey; target: string; toOne: true; oneToOne: boolean }
  | { kind: 'o2m'; fk: ForeignKey; target: string; toOne: boolean }
  | { kind: 'm2m'; junction: string; source: ForeignKey; fk: ForeignKey; target: string }
  /** A function over the parent's row returning the target's rows (`get_messages(channels)`). */
  | { kind: 'computed'; fn: string; target: string; toOne: boolean };

export const isToOne = (r: Relationship) => r.kind !== 'm2m' && r.toOne;

const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/** The column pairs as PostgREST keeps them: (the parent's column, the target's column). */
function columnPairs(r: Relationship): [string, string][] {
  if (r.kind === 'm2o') return r.fk.columns.map((c, i) => [c, r.fk.refColumns[i] ?? '']);
  if (r.kind === 'o2m') return r.fk.refColumns.map((c, i) => [c, r.fk.columns[i] ?? '']);
  return [];
}

/** Every foreign-key relationship of `parent`, in PostgREST's order (see `rank`). */
function relationshipsOf(cache: SchemaCache, parent: string): Relationship[] {
  const out: Relationship[] = [];
  const fks = cache.foreignKeys;
  for (const fk of fks) {
    if (fk.table === parent) {
      const pk = cache.relations.get(parent)?.pk ?? [];
      const oneToOne = sameSet(fk.columns, pk);
      out.push({ kind: 'm2o', fk, target: fk.refTable, toOne: true, oneToOne });
    }
    if (fk.refTable === parent) {
      const pk = cache.relations.get(fk.table)?.pk ?? [];
      out.push({ kind: 'o2m', fk, target: fk.table, toOne: sameSet(fk.columns, pk) });
    }
  }
  for (const source of fks) {
    if (source.refTable !== parent || source.table === parent) continue;
    const pk = cache.relations.get(source.table)?.pk ?? [];
    for (const fk of fks) {
      if (fk === source || fk.table !== source.table) continue;
      if ([...source.columns, ...fk.columns].every((c) => pk.includes(c))) {
        out.push({ kind: 'm2m', junction: source.table, source, fk, target: fk.refTable });
      }
    }
  }
  return out.sort((a, b) => compare(parent, a, b));
}

/** PostgREST's order of candidates: target, self last, O2M < M2O < O2O < M2M, then name. */
function compare(parent: string, a: Relationship, b: Relationship): number {
  const key = (r: Relationship) =>
    [
      r.target,
      r.target === parent ? '1' : '0',
      String(CARDINALITIES.indexOf(cardinality(r))),
      r.kind === 'm2m' ? r.junction : r.kind === 'computed' ? r.fn : r.fk.name,
    ].join('\u0000');
  const [x, y] = [key(a), key(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** In the order of PostgREST's `Cardinality` constructors, which its candidates sort by. */
const CARDINALITIES = ['one-to-many', 'many-to-one', 'one-to-one', 'many-to-many'];

function cardinality(r: Relationship): string {
  if (r.kind === 'm2m') return 'many-to-many';
  if (r.kind === 'o2m') return r.toOne ? 'one-to-one' : 'one-to-many';
  if (r.kind === 'm2o' && r.oneToOne) return 'one-to-one';
  return 'many-to-one';
}

/** findRel's matching of `target!hint` against one relationship (PostgREST's Plan.hs). */
function matches(
  cache: SchemaCache,
  parent: string,
  r: Relationship,
  target: string,
  hint: string | undefined,
): boolean {
  const pairs = columnPairs(r);
  const single = pairs.length === 1 ? pairs[0] : undefined;
  const constraint = r.kind === 'm2o' || r.kind === 'o2m' ? r.fk.name : undefined;
  if (r.target === parent && r.kind !== 'm2m') {
    // A self-reference: the table name embeds the children (O2M), a column the parent (M2O);
    // a hint names the children's column.
    if (hint === undefined)
      return (
        (target === r.target && r.kind === 'o2m') || (single?.[0] === target && r.kind === 'm2o')
      );
    return target === r.target && r.kind === 'o2m' && single?.[1] === hint;
  }
  if (hint === undefined) {
    const targetIsView = cache.relations.get(r.target)?.kind === 'view';
    return (
      target === r.target || (!targetIsView && (constraint === target || single?.[0] === target))
    );
  }
  return (
    target === r.target &&
    (constraint === hint ||
      single?.[0] === hint ||
      single?.[1] === hint ||
      (r.kind === 'm2m' && r.junction === hint))
  );
}

function describe(parent: string, r: Relationship) {
  const cols = (table: string, names: string[]) => `${table}(${names.join(', ')})`;
  const pairs = columnPairs(r);
  const relationship =
    r.kind === 'm2m'
      ? `${r.junction} using ${cols(r.source.name, r.source.columns)} and ${cols(r.fk.name, r.fk.columns)}`
      : r.kind === 'computed'
        ? r.fn
        : `${r.fk.name} using ${cols(
            parent,
            pairs.map((p) => p[0]),
          )} and ${cols(
            r.target,
            pairs.map((p) => p[1]),
          )}`;
  return { cardinality: cardinality(r), embedding: `${parent} with ${r.target}`, relationship };
}

export function findRelationship(
  cache: SchemaCache,
  parent: string,
  target: string,
  hint: string | undefined,
): Result<Relationship> {
  const computed = cache.computedRelationships.find((c) => c.parent === parent && c.fn === target);
  if (computed) {
    return ok({
      kind: 'computed',
      fn: computed.fn,
      target: computed.target,
      toOne: computed.toOne,
    });
  }
  const found = relationshipsOf(cache, parent).filter((r) =>
    matches(cache, parent, r, target, hint),
  );
  const [only] = found;
  if (found.length === 1 && only) return ok(only);
  if (found.length === 0) {
    return fail(
      apiError(
        400,
        'PGRST200',
        `Could not find a relationship between '${parent}' and '${target}' in the schema cache`,
        `Searched for a foreign key relationship between '${parent}' and '${target}'${hint ? ` using the hint '${hint}'` : ''} in the schema '${cache.schema}', but no matches were found.`,
        noRelationHint(cache, parent, target),
      ),
    );
  }
  const options = found.map(
    (r) =>
      `'${r.target}!${r.kind === 'm2m' ? r.junction : r.kind === 'computed' ? r.fn : r.fk.name}'`,
  );
  return fail(
    apiError(
      300,
      'PGRST201',
      `Could not embed because more than one relationship was found for '${parent}' and '${target}'`,
      found.map((r) => describe(parent, r)),
      `Try changing '${target}' to one of the following: ${options.join(', ')}. Find the desired relationship in the 'details' key.`,
    ),
  );
}

/** The tables `name` has relationships to, computed ones included (PostgREST's `allRels`). */
function relatedTables(cache: SchemaCache, name: string): string[] {
  const computed = cache.computedRelationships.filter((c) => c.parent === name);
  return [...relationshipsOf(cache, name).map((r) => r.target), ...computed.map((c) => c.target)];
}

/**
 * PostgREST's `noRelBetweenHint`: a parent with relationships suggests the related table most
 * like `target` (never `target` itself); an unknown parent, the table with relationships most
 * like it.
 */
function noRelationHint(cache: SchemaCache, parent: string, target: string): string | null {
  const children = [...new Set(relatedTables(cache, parent))];
  if (children.length) {
    const near = fuzzyMatches(children, target).find((m) => m.score < 1);
    return near ? `Perhaps you meant '${near.value}' instead of '${target}'.` : null;
  }
  const parents = [...cache.relations.keys()].filter((n) => relatedTables(cache, n).length);
  const near = fuzzyBest(parents, parent);
  return near ? `Perhaps you meant '${near}' instead of '${parent}'.` : null;
}
