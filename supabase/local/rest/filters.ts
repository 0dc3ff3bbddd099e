import { fail, ok, parseError, type Result } from './errors.ts';
import type { Condition, Filter } from './grammar.ts';
import { columnExpr, type Params, type Source } from './sql.ts';

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
  // nxr: does not extend to the right (&<); nxl: does not extend to the left (&>).
  nxl: '&>',
  nxr: '&<',
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

/** `like`/`ilike` take `*` as their wildcard (`%` does not survive a URL unencoded). */
const pattern = (f: Filter, value: string) =>
  f.op === 'like' || f.op === 'ilike' ? value.replace(/\*/g, '%') : value;

function filterSql(alias: string, source: Source, f: Filter, params: Params): Result<string> {
  const col = columnExpr(alias, source, f.field, params);
  if (!col.ok) return col;
  const { sql: expr, text } = col.value;
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
      const each = f.value.map((v) => `${lhs} ${operator} ${params.add(pattern(f, v))}`);
      sql = each.length
        ? `(${each.join(f.modifier === 'all' ? ' and ' : ' or ')})`
        : f.modifier === 'all'
          ? 'true'
          : 'false';
    } else {
      sql = `${lhs} ${operator} ${params.add(pattern(f, f.value))}`;
    }
  }
  return ok(f.negated ? `not (${sql})` : sql);
}

export function conditionSql(
  alias: string,
  source: Source,
  c: Condition,
  params: Params,
): Result<string> {
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
