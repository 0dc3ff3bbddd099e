import { apiError, fail, ok, type ApiError, type Result } from './errors.ts';
import { readPlan, type Plan, type ReadOptions } from './plans.ts';
import { planQuery, relationSource } from './query.ts';
import type { FunctionDef, SchemaCache } from './schema-cache.ts';
import { fuzzyBest, NAME_HINT_SCORE } from './fuzzy.ts';
import { ident, Params, type Source } from './sql.ts';

export type RpcCall = {
  fn: FunctionDef;
  args: Record<string, unknown> | undefined;
  whole: unknown;
  /** `Prefer: params=single-object`: `whole` is the argument, whatever the parameter's name. */
  singleObject: boolean;
};

/** How a POST body reaches a function with a single unnamed parameter, by Content-Type. */
export type BodyKind = 'json' | 'text' | 'xml' | 'bytea';

/** The unnamed parameter types each body kind may fill (PostgREST's `hasSingleUnnamedParam`). */
const UNNAMED_TYPES: Record<BodyKind, readonly string[]> = {
  json: ['json', 'jsonb'],
  text: ['text'],
  xml: ['xml'],
  bytea: ['bytea'],
};

export type RpcLookup = {
  name: string;
  /** Argument names: the JSON body's keys, or the query parameters naming parameters. */
  keys: string[];
  /** A POST, whose whole body may go to a single unnamed parameter. */
  post: boolean;
  body: BodyKind;
  /** `Prefer: params=single-object` on a JSON POST. */
  singleObject: boolean;
};

const isUnnamedSingle = (f: FunctionDef) => f.args.length === 1 && f.args[0]?.name === '';

/**
 * Whether the arguments `keys` call `f` (PostgREST's `matchesParams`): every required
 * parameter given, and nothing given that is not a parameter. An unnamed parameter is named
 * `''`, as supabase-js sends `{ '': value }`.
 */
function matchesParams(f: FunctionDef, keys: ReadonlySet<string>, raw: boolean): boolean {
  if (!f.args.length) return keys.size === 0 && !raw;
  const names = new Set(f.args.map((a) => a.name));
  return (
    [...keys].every((k) => names.has(k)) && f.args.every((a) => a.hasDefault || keys.has(a.name))
  );
}

/**
 * PostgREST's overload resolution (`findProc`): among the callable functions `name`, those the
 * argument names call; failing any, on POST, those whose single unnamed parameter the body's
 * type fills. One is called; several are 300 PGRST203; none is 404 PGRST202.
 */
export function resolveFunction(cache: SchemaCache, call: RpcLookup): Result<FunctionDef> {
  const { name, post, body } = call;
  const overloads = (cache.functions.get(name) ?? []).filter((f) => f.callable);
  if (post && body === 'json' && call.singleObject) return singleObjectFunction(cache, name);
  const raw = post && body !== 'json';
  const keys = new Set(call.keys);
  const byName = overloads.filter((f) => matchesParams(f, keys, raw));
  const fallback = post
    ? overloads.filter(
        (f) => isUnnamedSingle(f) && UNNAMED_TYPES[body].includes(f.args[0]?.type ?? ''),
      )
    : [];
  const matches = byName.length ? byName : fallback;
  const [only] = matches;
  if (matches.length === 1 && only) return ok(only);
  if (matches.length > 1) {
    const sig = (f: FunctionDef) =>
      `${cache.schema}.${f.name}(${f.args.map((a) => `${a.name} => ${a.type}`).join(', ')})`;
    return fail(
      apiError(
        300,
        'PGRST203',
        `Could not choose the best candidate function between: ${matches.map(sig).join(', ')}`,
        null,
        'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
      ),
    );
  }
  const error = noFunction(
    `${cache.schema}.${name}`,
    [...keys],
    raw ? body : post ? 'json' : undefined,
  );
  return fail(raw ? error : { ...error, hint: noFunctionHint(cache, name, [...keys], overloads) });
}

/**
 * PostgREST's "Perhaps you meant to call …": for a name with no callable function, the
 * schema's function most like it (at least 0.75 alike); for a known name, the overload whose
 * parameter names are most like the ones given.
 */
function noFunctionHint(
  cache: SchemaCache,
  name: string,
  keys: string[],
  overloads: readonly FunctionDef[],
): string | null {
  const asList = (names: string[]) => `(${[...names].sort().join(', ')})`;
  let suggestion: string | undefined;
  if (!overloads.length) {
    const callable = [...cache.functions.entries()]
      .filter(([, fs]) => fs.some((f) => f.callable))
      .map(([n]) => n);
    suggestion = fuzzyBest(callable, name, NAME_HINT_SCORE);
  } else {
    const lists = overloads.map((f) => asList(f.args.map((a) => a.name)));
    const best = fuzzyBest(lists, asList(keys));
    suggestion = best === undefined ? undefined : `${name}${best}`;
  }
  return suggestion === undefined
    ? null
    : `Perhaps you meant to call the function ${cache.schema}.${suggestion}`;
}

/**
 * PostgREST 12's `Prefer: params=single-object`: the one function `name` whose only parameter,
 * named or not, is json or jsonb takes the whole body.
 */
function singleObjectFunction(cache: SchemaCache, name: string): Result<FunctionDef> {
  const matches = (cache.functions.get(name) ?? []).filter(
    (f) => f.callable && f.args.length === 1 && UNNAMED_TYPES.json.includes(f.args[0]?.type ?? ''),
  );
  const [only] = matches;
  if (matches.length === 1 && only) return ok(only);
  const fn = `${cache.schema}.${name}`;
  return fail(
    apiError(
      404,
      'PGRST202',
      `Could not find the function ${fn} in the schema cache`,
      `Searched for the function ${fn} with a single json/jsonb parameter, but no matches were found in the schema cache.`,
    ),
  );
}

/** PGRST202 worded as PostgREST words it for the call's arguments and body. */
function noFunction(fn: string, given: string[], body: BodyKind | undefined): ApiError {
  const keys = [...given].sort();
  if (body && body !== 'json') {
    return apiError(
      404,
      'PGRST202',
      `Could not find the function ${fn} in the schema cache`,
      `Searched for the function ${fn} with a single unnamed ${body} parameter, but no matches were found in the schema cache.`,
    );
  }
  const list = keys.length ? `(${keys.join(', ')})` : ' without parameters';
  const searched = keys.length
    ? ` with parameter${keys.length > 1 ? 's' : ''} ${keys.join(', ')}`
    : ' without parameters';
  return apiError(
    404,
    'PGRST202',
    `Could not find the function ${fn}${list} in the schema cache`,
    `Searched for the function ${fn}${searched}${body === 'json' ? ' or with a single unnamed json/jsonb parameter' : ''}, but no matches were found in the schema cache.`,
  );
}

/**
 * The columns an RPC's rows offer to `select`: a function returning a table's rows reads like
 * that table, its computed fields and relationships included (PostgreSQL passes the row of the
 * wrapping subquery to a computed field as the table's row type).
 */
function rowSourceOf(cache: SchemaCache, fn: FunctionDef): Source {
  const table = fn.table === undefined ? undefined : relationSource(cache, fn.table);
  return (
    table ?? {
      schema: cache.schema,
      name: fn.name,
      columns: new Map(fn.columns.map((c) => [c.name, c])),
      table: false,
    }
  );
}

export function rpcPlan(
  cache: SchemaCache,
  call: RpcCall,
  query: URLSearchParams,
  argKeys: ReadonlySet<string>,
  opts: ReadOptions,
): Result<Plan> {
  const { fn } = call;
  const params = new Params();
  const fnName = `${ident(cache.schema)}.${ident(fn.name)}`;
  let from: string;
  let invoke: string;
  if (isUnnamedSingle(fn) || call.singleObject) {
    const whole =
      typeof call.whole === 'string' || Buffer.isBuffer(call.whole)
        ? call.whole
        : JSON.stringify(call.whole ?? {});
    invoke = `${fnName}(${params.add(whole)}::${fn.args[0]?.type ?? 'json'})`;
    from = '';
  } else {
    const given = fn.args.filter((a) => call.args && a.name in call.args);
    invoke = `${fnName}(${given.map((a) => `${ident(a.name)} := pgrst_args.${ident(a.name)}`).join(', ')})`;
    from = given.length
      ? `json_to_record(${params.add(JSON.stringify(call.args))}::json) as pgrst_args(${given.map((a) => `${ident(a.name)} ${a.type}`).join(', ')})`
      : '';
  }
  const source = from ? `${from} cross join lateral ` : '';
  if (fn.returns === 'void')
    return ok({
      shape: 'void',
      sql: `select ${invoke} ${from ? `from ${from}` : ''}`,
      params: params.values,
    });
  if (fn.returns === 'scalar' && !fn.returnsSet) {
    return ok({
      shape: 'scalar',
      sql: `select to_json(${invoke})::text as body ${from ? `from ${from}` : ''}`,
      params: params.values,
    });
  }
  if (fn.returns === 'scalar') {
    const body = opts.head ? 'null' : `coalesce(json_agg(pgrst_0), '[]')::text`;
    const sql = `select null as total, count(*) as page, ${body} as body, null as inserted from ${source}${invoke} pgrst_0`;
    return ok({ shape: 'rows', sql, params: params.values, offset: 0 });
  }
  const node = planQuery(cache, rowSourceOf(cache, fn), query, argKeys);
  if (!node.ok) return node;
  const read = readPlan(
    `(select pgrst_fn.* from ${source}${invoke} pgrst_fn)`,
    node.value,
    params,
    {
      ...opts,
      representation: fn.returnsSet
        ? opts.representation
        : { ...opts.representation, kind: 'object' },
    },
  );
  return read;
}
