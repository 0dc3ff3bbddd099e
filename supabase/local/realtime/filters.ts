/**
 * The `filter` of a postgres_changes binding: `col=op.value` terms joined by `,` and ANDed,
 * each optionally negated with `not.`; values with `,()"\` or outer spaces are double-quoted
 * PostgREST-style and `in` takes a parenthesised list (docs/platform-wire.md §4.4).
 */
export const FILTER_OPERATORS = [
  'eq',
  'neq',
  'lt',
  'lte',
  'gt',
  'gte',
  'in',
  'like',
  'ilike',
  'is',
  'match',
  'imatch',
  'isdistinct',
] as const;

export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** `value` is a list for `in`, a single string otherwise. */
export type FilterTerm = {
  column: string;
  op: FilterOperator;
  negate: boolean;
  value: string | string[];
};

export type FilterParse = { ok: true; terms: FilterTerm[] } | { ok: false; message: string };

const IS_VALUES = ['null', 'true', 'false', 'unknown'];

const fail = (detail: string): FilterParse => ({
  ok: false,
  message: `Error parsing \`filter\` params: ${detail}`,
});

/** Splits on `sep` outside double quotes and parentheses. */
function splitTopLevel(s: string, sep: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === sep && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
    if (depth < 0) return undefined;
  }
  if (quoted || depth !== 0) return undefined;
  parts.push(s.slice(start));
  return parts;
}

function unquote(raw: string): string | undefined {
  if (!raw.startsWith('"')) return raw;
  if (raw.length < 2 || !raw.endsWith('"')) return undefined;
  return raw.slice(1, -1).replace(/\\(.)/g, '$1');
}

function parseTerm(term: string): FilterTerm | string {
  const eq = term.indexOf('=');
  if (eq <= 0) return `${term} is not of the form column=operator.value`;
  const column = term.slice(0, eq).trim();
  let rest = term.slice(eq + 1);
  const negate = rest.startsWith('not.');
  if (negate) rest = rest.slice(4);
  const dot = rest.indexOf('.');
  const op = (dot < 0 ? rest : rest.slice(0, dot)) as FilterOperator;
  if (!FILTER_OPERATORS.includes(op)) return `${op} is not a supported operator`;
  if (dot < 0) return `${term} has no value`;
  const raw = rest.slice(dot + 1);
  if (op === 'in') {
    if (!raw.startsWith('(') || !raw.endsWith(')')) return `${raw} is not a list like (a,b)`;
    const items = splitTopLevel(raw.slice(1, -1), ',');
    const values = items?.map((item) => unquote(item.trim()));
    if (!values || values.some((x) => x === undefined)) return `${raw} is not a valid list`;
    return { column, op, negate, value: values as string[] };
  }
  const value = unquote(raw);
  if (value === undefined) return `${raw} is not a valid value`;
  if (op === 'is' && !IS_VALUES.includes(value.toLowerCase())) {
    return `is takes null, true, false or unknown, not ${value}`;
  }
  return { column, op, negate, value: op === 'is' ? value.toLowerCase() : value };
}

export function parseFilter(filter: string | null | undefined): FilterParse {
  if (!filter) return { ok: true, terms: [] };
  const parts = splitTopLevel(filter, ',');
  if (!parts) return fail(`${filter} has unbalanced quotes or parentheses`);
  const terms: FilterTerm[] = [];
  for (const part of parts) {
    const t = parseTerm(part);
    if (typeof t === 'string') return fail(t);
    terms.push(t);
  }
  return { ok: true, terms };
}
