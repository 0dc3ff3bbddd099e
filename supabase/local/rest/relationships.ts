import { apiError, fail, ok, type Result } from './errors.ts';
import type { ForeignKey, SchemaCache } from './schema-cache.ts';

/** How an embedded relation joins its parent, read from foreign keys as PostgREST does. */
export type Relationship =
  | { kind: 'm2o'; fk: ForeignKey; target: string }
  | { kind: 'o2m'; fk: ForeignKey; target: string; toOne: boolean }
  | { kind: 'm2m'; junction: string; source: ForeignKey; fk: ForeignKey; target: string };

export const isToOne = (r: Relationship) => r.kind === 'm2o' || (r.kind === 'o2m' && r.toOne);

const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

function candidates(cache: SchemaCache, parent: string, target: string): Relationship[] {
  const out: Relationship[] = [];
  const fks = cache.foreignKeys;
  for (const fk of fks) {
    if (fk.table === parent && fk.refTable === target) out.push({ kind: 'm2o', fk, target });
    if (fk.table === target && fk.refTable === parent) {
      const pk = cache.relations.get(target)?.pk ?? [];
      out.push({ kind: 'o2m', fk, target, toOne: sameSet(fk.columns, pk) });
    }
  }
  for (const source of fks) {
    if (source.refTable !== parent || source.table === parent || source.table === target) continue;
    const pk = cache.relations.get(source.table)?.pk ?? [];
    for (const fk of fks) {
      if (fk === source || fk.table !== source.table || fk.refTable !== target) continue;
      if ([...source.columns, ...fk.columns].every((c) => pk.includes(c))) {
        out.push({ kind: 'm2m', junction: source.table, source, fk, target });
      }
    }
  }
  if (!cache.relations.has(target)) {
    for (const fk of fks) {
      if (fk.table === parent && fk.columns.length === 1 && fk.columns[0] === target) {
        out.push({ kind: 'm2o', fk, target: fk.refTable });
      }
    }
  }
  return out;
}

function matchesHint(r: Relationship, hint: string): boolean {
  if (r.fk.name === hint || r.fk.columns.includes(hint) || r.fk.refColumns.includes(hint))
    return true;
  return (
    r.kind === 'm2m' &&
    (r.junction === hint || r.source.name === hint || r.source.columns.includes(hint))
  );
}

function describe(parent: string, r: Relationship) {
  const fk = r.kind === 'm2m' ? r.source : r.fk;
  const cardinality =
    r.kind === 'm2m'
      ? 'many-to-many'
      : r.kind === 'm2o'
        ? 'many-to-one'
        : r.toOne
          ? 'one-to-one'
          : 'one-to-many';
  const relationship =
    r.kind === 'm2m'
      ? `${r.junction} using ${r.source.name}(${r.source.columns.join(', ')}) and ${r.fk.name}(${r.fk.columns.join(', ')})`
      : `${fk.name} using ${fk.table}(${fk.columns.join(', ')}) and ${fk.refTable}(${fk.refColumns.join(', ')})`;
  return { cardinality, embedding: `${parent} with ${r.target}`, relationship };
}

export function findRelationship(
  cache: SchemaCache,
  parent: string,
  target: string,
  hint: string | undefined,
): Result<Relationship> {
  let found = candidates(cache, parent, target);
  if (hint !== undefined) found = found.filter((r) => matchesHint(r, hint));
  const [only] = found;
  if (found.length === 1 && only) return ok(only);
  if (found.length === 0) {
    return fail(
      apiError(
        400,
        'PGRST200',
        `Could not find a relationship between '${parent}' and '${target}' in the schema cache`,
        `Searched for a foreign key relationship between '${parent}' and '${target}'${hint ? ` using the hint '${hint}'` : ''} in the schema 'public', but no matches were found.`,
      ),
    );
  }
  const options = found.map((r) => `'${target}!${r.kind === 'm2m' ? r.junction : r.fk.name}'`);
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
