/**
 * PostgREST's query-string grammar (docs/platform-wire.md §3.2–3.4): `select`, filters, logic trees
 * and `order`. Pure parsing into a tree; names are checked against the schema later.
 */

export type JsonStep = { arrow: '->' | '->>'; key: string };
export type Field = { name: string; path: JsonStep[] };

export type SelectItem =
  | { kind: 'star' }
  | { kind: 'column'; field: Field; alias: string | undefined; cast: string | undefined }
  /** `rel(count)`: the number of related rows, PostgREST's long-standing embedded count. */
  | { kind: 'count'; alias: string | undefined }
  /** `col.sum()`, `count()`…: an aggregate, the other columns of its level grouped. */
  | {
      kind: 'aggregate';
      fn: AggregateFn;
      /** Absent for `count()`. */
      field: Field | undefined;
      alias: string | undefined;
      /** A cast of the column before aggregating (`amount::int.sum()`). */
      cast: string | undefined;
      /** A cast of the result (`amount.avg()::int`). */
      resultCast: string | undefined;
    }
  | {
      kind: 'embed';
      name: string;
      alias: string | undefined;
      hint: string | undefined;
      join: 'inner' | 'left';
      spread: boolean;
      items: SelectItem[];
    };

export const AGGREGATES = ['sum', 'avg', 'min', 'max', 'count'] as const;
export type AggregateFn = (typeof AGGREGATES)[number];

export const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'in',
  'is',
  'isdistinct',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxl',
  'nxr',
  'adj',
  'fts',
  'plfts',
  'phfts',
  'wfts',
] as const;
export type Operator = (typeof OPERATORS)[number];

export type Filter = {
  kind: 'filter';
  field: Field;
  negated: boolean;
  op: Operator;
  /** `any`/`all` for eq, like…; the text-search config for fts ops. */
  modifier: string | undefined;
  /** A list for `in` and quantified ops, else the raw value. */
  value: string | string[];
};
export type Tree = { kind: 'tree'; op: 'and' | 'or'; negated: boolean; children: Condition[] };
export type Condition = Filter | Tree;

export type OrderTerm = {
  field: Field;
  /** Set when ordering by a column of a to-one embed: `order=rel(col).desc`. */
  relation: string | undefined;
  direction: 'asc' | 'desc' | undefined;
  nulls: 'first' | 'last' | undefined;
};

class ParseFailure extends Error {}

/** Characters that end a bare name inside `select`, `order` and logic trees. */
const STOP = new Set([',', '(', ')', '!', ':', '"', '.', ' ']);

/**
 * Deeper embeds or logic trees than this are refused as a parse error: each level becomes a
 * subquery or expression, and Postgres would otherwise fail with a 5xx stack-depth error.
 */
const MAX_DEPTH = 32;

class Cursor {
  pos = 0;
  private depth = 0;
  enter() {
    if (++this.depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH} levels`);
  }
  leave() {
    this.depth--;
  }
  constructor(readonly text: string) {}
  get done() {
    return this.pos >= this.text.length;
  }
  peek(s: string) {
    return this.text.startsWith(s, this.pos);
  }
  eat(s: string) {
    if (!this.peek(s)) return false;
    this.pos += s.length;
    return true;
  }
  expect(s: string) {
    if (!this.eat(s)) this.fail(`expecting "${s}"`);
  }
  fail(what: string): never {
    const at = this.done ? 'end of input' : `"${this.text.slice(this.pos, this.pos + 1)}"`;
    throw new ParseFailure(`unexpected ${at} ${what} at position ${this.pos + 1}`);
  }
  quoted(): string {
    this.expect('"');
    let out = '';
    while (!this.done && !this.peek('"')) {
      if (this.peek('\\') && this.pos + 1 < this.text.length) this.pos++;
      out += this.text[this.pos++];
    }
    this.expect('"');
    return out;
  }
  bare(extraStops?: Set<string>): string {
    const start = this.pos;
    while (!this.done) {
      const ch = this.text[this.pos] ?? '';
      if (STOP.has(ch) || extraStops?.has(ch) || this.peek('->') || this.peek('::')) break;
      this.pos++;
    }
    return this.text.slice(start, this.pos);
  }
  name(): string {
    if (this.peek('"')) return this.quoted();
    const n = this.bare();
    if (!n) this.fail('expecting a name');
    return n;
  }
  jsonPath(): JsonStep[] {
    const path: JsonStep[] = [];
    while (this.peek('->')) {
      const arrow = this.eat('->>') ? '->>' : (this.expect('->'), '->');
      path.push({ arrow, key: this.name() });
    }
    return path;
  }
  field(): Field {
    return { name: this.name(), path: this.jsonPath() };
  }
}

function run<T>(
  text: string,
  f: (c: Cursor) => T,
): { ok: true; value: T } | { ok: false; details: string } {
  const c = new Cursor(text);
  try {
    const value = f(c);
    if (!c.done) c.fail('expecting end of input');
    return { ok: true, value };
  } catch (e) {
    if (e instanceof ParseFailure) return { ok: false, details: e.message };
    throw e;
  }
}

const CAST = /^[a-z_][a-z0-9_]*(\[\])?$/i;

function selectItems(c: Cursor, nested: boolean): SelectItem[] {
  const items: SelectItem[] = [];
  if (nested && c.peek(')')) return items;
  c.enter();
  do items.push(selectItem(c, nested));
  while (c.eat(','));
  c.leave();
  return items;
}

function selectItem(c: Cursor, nested: boolean): SelectItem {
  if (c.eat('*')) return { kind: 'star' };
  const spread = c.eat('...');
  let alias: string | undefined;
  let name = c.name();
  if (!spread && c.peek(':') && !c.peek('::')) {
    c.expect(':');
    alias = name;
    name = c.name();
  }
  if (!spread && name === 'count' && c.eat('()')) {
    return {
      kind: 'aggregate',
      fn: 'count',
      field: undefined,
      alias,
      cast: undefined,
      resultCast: castAfter(c),
    };
  }
  if (nested && name === 'count' && !spread && (c.done || c.peek(',') || c.peek(')'))) {
    return { kind: 'count', alias };
  }
  if (spread || c.peek('!') || c.peek('(')) {
    let hint: string | undefined;
    let join: 'inner' | 'left' = 'left';
    while (c.eat('!')) {
      const h = c.name();
      if (h === 'inner' || h === 'left') join = h;
      else if (hint === undefined) hint = h;
      else c.fail('expecting a single relationship hint');
    }
    c.expect('(');
    const items = selectItems(c, true);
    c.expect(')');
    return { kind: 'embed', name, alias, hint, join, spread, items };
  }
  const field = { name, path: c.jsonPath() };
  const cast = castAfter(c);
  const fn = aggregateAfter(c);
  if (fn) return { kind: 'aggregate', fn, field, alias, cast, resultCast: castAfter(c) };
  return { kind: 'column', field, alias, cast };
}

/** `::type` after a select item, if there. */
function castAfter(c: Cursor): string | undefined {
  if (!c.eat('::')) return undefined;
  const cast = c.bare();
  if (!CAST.test(cast)) c.fail('expecting a type name');
  return cast;
}

/** `.sum()`, `.avg()`… after a column, if there. */
function aggregateAfter(c: Cursor): AggregateFn | undefined {
  const fn = AGGREGATES.find((a) => c.peek(`.${a}()`));
  if (fn) c.pos += fn.length + 3;
  return fn;
}

export function parseSelect(text: string) {
  return run(text, (c) => selectItems(c, false));
}

/** `[not.]op[(modifier)].value` of a query-parameter filter or a logic-tree leaf. */
function operation(c: Cursor, inTree: boolean): Omit<Filter, 'kind' | 'field'> {
  const negated = c.eat('not.');
  const opName = c.bare(new Set(['.']));
  if (!(OPERATORS as readonly string[]).includes(opName))
    c.fail(`expecting an operator, found "${opName}"`);
  const op = opName as Operator;
  let modifier: string | undefined;
  if (c.eat('(')) {
    modifier = c.bare();
    c.expect(')');
    if (['fts', 'plfts', 'phfts', 'wfts'].includes(op)) {
      if (!/^[a-z_][a-z0-9_]*$/i.test(modifier)) c.fail('expecting a text search config');
    } else if (modifier !== 'any' && modifier !== 'all') c.fail('expecting "any" or "all"');
  }
  c.expect('.');
  if (op === 'in') return { negated, op, modifier, value: list(c, '(', ')') };
  if (modifier === 'any' || modifier === 'all')
    return { negated, op, modifier, value: list(c, '{', '}') };
  return {
    negated,
    op,
    modifier,
    value: inTree ? treeValue(c) : c.text.slice(c.pos, (c.pos = c.text.length)),
  };
}

/** `(a,"b,c",d)` — quoted items may contain the delimiters. */
function list(c: Cursor, open: string, close: string): string[] {
  c.expect(open);
  const items: string[] = [];
  if (c.eat(close)) return items;
  for (;;) {
    if (c.peek('"')) items.push(c.quoted());
    else {
      const start = c.pos;
      while (!c.done && !c.peek(',') && !c.peek(close)) c.pos++;
      items.push(c.text.slice(start, c.pos));
    }
    if (c.eat(close)) return items;
    c.expect(',');
  }
}

/** A leaf value inside `or=(…)`: quoted, or up to the next `,`/`)` outside brackets. */
function treeValue(c: Cursor): string {
  if (c.peek('"')) return c.quoted();
  const start = c.pos;
  let depth = 0;
  while (!c.done) {
    const ch = c.text[c.pos];
    if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
    else if (depth <= 0 && (ch === ',' || ch === ')')) break;
    c.pos++;
  }
  return c.text.slice(start, c.pos);
}

function treeChildren(c: Cursor): Condition[] {
  c.expect('(');
  c.enter();
  const children: Condition[] = [];
  do children.push(treeItem(c));
  while (c.eat(','));
  c.expect(')');
  c.leave();
  return children;
}

function treeItem(c: Cursor): Condition {
  const save = c.pos;
  const negated = c.eat('not.');
  for (const op of ['and', 'or'] as const) {
    if (c.peek(`${op}(`)) {
      c.pos += op.length;
      return { kind: 'tree', op, negated, children: treeChildren(c) };
    }
  }
  c.pos = save;
  const field = c.field();
  c.expect('.');
  return { kind: 'filter', field, ...operation(c, true) };
}

export function parseTree(op: 'and' | 'or', negated: boolean, text: string) {
  return run(text, (c): Tree => ({ kind: 'tree', op, negated, children: treeChildren(c) }));
}

export function parseFilter(field: Field, text: string) {
  return run(text, (c): Filter => ({ kind: 'filter', field, ...operation(c, false) }));
}

/**
 * A query-parameter key: `col`, `data->>k`, `rel.col`, `rel.or`, `not.or`, `rel.order`… The
 * embed path is every segment before the last.
 */
export function parseKey(text: string) {
  return run(text, (c) => {
    const segments: Field[] = [c.field()];
    while (c.eat('.')) segments.push(c.field());
    return segments;
  });
}

export function parseOrder(text: string) {
  return run(text, (c) => {
    const terms: OrderTerm[] = [];
    do {
      let field = c.field();
      let relation: string | undefined;
      if (!field.path.length && c.eat('(')) {
        relation = field.name;
        field = c.field();
        c.expect(')');
      }
      let direction: OrderTerm['direction'];
      let nulls: OrderTerm['nulls'];
      while (c.eat('.')) {
        const word = c.bare();
        if (word === 'asc' || word === 'desc') direction = word;
        else if (word === 'nullsfirst') nulls = 'first';
        else if (word === 'nullslast') nulls = 'last';
        else c.fail('expecting asc, desc, nullsfirst or nullslast');
      }
      terms.push({ field, relation, direction, nulls });
    } while (c.eat(','));
    return terms;
  });
}
