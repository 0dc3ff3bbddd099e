import type { ForeignKey } from './foreign-key.ts';

/**
 * Where each column of a view comes from, read from its `_RETURN` rule (`pg_rewrite.ev_action`)
 * as PostgREST's schema cache reads it ("allViewsKeyDependencies"): every top-level target entry
 * names the relation and column it shows (`resorigtbl`, `resorigcol`), whatever it is called in
 * the view. Views over views are followed down to their tables.
 */

/** One view's rule as the catalog query returns it. */
export type ViewRule = { view: string; oid: number; action: string };

/** A relation of the exposed schema by oid, with its column names by attnum. */
export type RelationAttributes = { name: string; attnums: Map<number, string> };

type Origin = { table: number; column: number };

/** A parsed `pg_node_tree`: nodes (`{NAME :field value…}`), lists and atoms. */
type Tree = string | Tree[] | { node: string; fields: Map<string, Tree[]> };

const DELIMITERS = new Set(['{', '}', '(', ')']);

/** Tokens of a `pg_node_tree`, where `\` escapes the next character of a name. */
function tokenize(text: string): { token: string; delimiter: boolean }[] {
  const tokens: { token: string; delimiter: boolean }[] = [];
  let word = '';
  let inWord = false;
  const flush = () => {
    if (inWord) tokens.push({ token: word, delimiter: false });
    word = '';
    inWord = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (ch === '\\') {
      word += text[++i] ?? '';
      inWord = true;
    } else if (DELIMITERS.has(ch)) {
      flush();
      tokens.push({ token: ch, delimiter: true });
    } else if (/\s/.test(ch)) flush();
    else {
      word += ch;
      inWord = true;
    }
  }
  flush();
  return tokens;
}

function parseTree(text: string): Tree | undefined {
  const tokens = tokenize(text);
  let at = 0;
  const value = (): Tree => {
    const t = tokens[at++];
    if (!t) return '';
    if (!t.delimiter) return t.token;
    if (t.token === '(') {
      const items: Tree[] = [];
      while (at < tokens.length && !isDelimiter(tokens[at], ')')) items.push(value());
      at++;
      return items;
    }
    if (t.token === '{') return node();
    return '';
  };
  // A field's value is every item up to the next `:field` (a Const prints `4 [ 1 0 0 0 ]`).
  const node = (): Tree => {
    const name = tokens[at++]?.token ?? '';
    const fields = new Map<string, Tree[]>();
    let current: Tree[] = [];
    while (at < tokens.length && !isDelimiter(tokens[at], '}')) {
      const t = tokens[at];
      if (t && !t.delimiter && t.token.startsWith(':')) {
        current = [];
        fields.set(t.token.slice(1), current);
        at++;
      } else current.push(value());
    }
    at++;
    return { node: name, fields };
  };
  return tokens.length ? value() : undefined;
}

const isDelimiter = (t: { token: string; delimiter: boolean } | undefined, d: string) =>
  t?.delimiter === true && t.token === d;

const field = (tree: Tree | undefined, name: string): Tree | undefined =>
  tree && typeof tree === 'object' && !Array.isArray(tree) ? tree.fields.get(name)?.[0] : undefined;

/** The origin of each column of the view (by attnum), from its query's top-level target list. */
function targetOrigins(action: string): Map<number, Origin> {
  const origins = new Map<number, Origin>();
  const queries = parseTree(action);
  const query = Array.isArray(queries) ? queries[0] : undefined;
  const targets = field(query, 'targetList');
  for (const entry of Array.isArray(targets) ? targets : []) {
    const resno = Number(field(entry, 'resno'));
    const table = Number(field(entry, 'resorigtbl'));
    const column = Number(field(entry, 'resorigcol'));
    if (table > 0 && column > 0) origins.set(resno, { table, column });
  }
  return origins;
}

/** Per view: for each (table oid, attnum) it shows, the view's columns showing it. */
type Shown = Map<string, string[]>;
const shownKey = (table: number, column: number) => `${table}:${column}`;

/**
 * Each view's columns traced to the table columns they show, through views over views (a
 * cycle, which PostgreSQL forbids anyway, simply stops the tracing).
 */
function traceViews(
  rules: readonly ViewRule[],
  relations: ReadonlyMap<number, RelationAttributes>,
): Map<string, Shown> {
  const direct = new Map(rules.map((r) => [r.oid, targetOrigins(r.action)]));
  const resolve = (origin: Origin, seen: Set<number>): Origin => {
    const next = direct.get(origin.table)?.get(origin.column);
    if (!next || seen.has(origin.table)) return origin;
    return resolve(next, new Set(seen).add(origin.table));
  };
  const out = new Map<string, Shown>();
  for (const rule of rules) {
    const names = relations.get(rule.oid)?.attnums;
    const shown: Shown = new Map();
    for (const [resno, origin] of direct.get(rule.oid) ?? []) {
      const base = resolve(origin, new Set([rule.oid]));
      const name = names?.get(resno);
      if (!name) continue;
      const key = shownKey(base.table, base.column);
      shown.set(key, [...(shown.get(key) ?? []), name]);
    }
    out.set(rule.view, shown);
  }
  return out;
}

/**
 * Every way of naming `columns` of `table` through one view: a key column the view shows twice
 * gives two keys (PostgREST's expandKeyDepCols); none when a column is not shown.
 */
function keyNamings(shown: Shown, table: number, attnums: number[]): string[][] {
  let combos: string[][] = [[]];
  for (const attnum of attnums) {
    const names = shown.get(shownKey(table, attnum)) ?? [];
    combos = combos.flatMap((combo) => names.map((n) => [...combo, n]));
  }
  return combos;
}

export type ViewKeys = {
  foreignKeys: ForeignKey[];
  /** The primary key each view shows of a table, under the view's first name for each column. */
  primaryKeys: Map<string, string[]>;
};

type TableKey = { table: string; columns: string[] };
type ViewNaming = { view: string; columns: string[] };

/** Each view's namings of a table's key (see keyNamings), the key given by column names. */
function namingsOf(
  key: TableKey,
  traced: ReadonlyMap<string, Shown>,
  relations: ReadonlyMap<number, RelationAttributes>,
): ViewNaming[] {
  const [oid, table] = [...relations].find(([, r]) => r.name === key.table) ?? [0, undefined];
  const byName = new Map([...(table?.attnums ?? [])].map(([n, name]) => [name, n]));
  const attnums = key.columns.map((c) => byName.get(c) ?? 0);
  return [...traced].flatMap(([view, shown]) =>
    keyNamings(shown, oid, attnums).map((columns) => ({ view, columns })),
  );
}

/** A foreign key as each view showing its referencing or referenced side (or both) has it. */
function throughViews(fk: ForeignKey, from: ViewNaming[], to: ViewNaming[]): ForeignKey[] {
  return [
    ...from.map((v) => ({ ...fk, table: v.view, columns: v.columns })),
    ...to.map((v) => ({ ...fk, refTable: v.view, refColumns: v.columns })),
    ...from.flatMap((f) =>
      to.map((t) => ({
        ...fk,
        table: f.view,
        columns: f.columns,
        refTable: t.view,
        refColumns: t.columns,
      })),
    ),
  ];
}

/**
 * The foreign keys and primary keys views take from their tables, as PostgREST derives them:
 * view → table, table → view and view → view for every foreign key whose columns a view shows;
 * a view's primary key is its table's under the first name it shows each column by.
 */
export function deriveViewKeys(
  rules: readonly ViewRule[],
  relations: ReadonlyMap<number, RelationAttributes>,
  foreignKeys: readonly ForeignKey[],
  primaryKeys: readonly TableKey[],
): ViewKeys {
  const traced = traceViews(rules, relations);
  const namings = (key: TableKey) => namingsOf(key, traced, relations);
  const derived = foreignKeys.flatMap((fk) =>
    throughViews(
      fk,
      namings({ table: fk.table, columns: fk.columns }),
      namings({ table: fk.refTable, columns: fk.refColumns }),
    ),
  );
  const pks = new Map<string, string[]>();
  for (const v of primaryKeys.flatMap(namings)) if (!pks.has(v.view)) pks.set(v.view, v.columns);
  return { foreignKeys: derived, primaryKeys: pks };
}
