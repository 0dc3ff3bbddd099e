import { apiError, fail, ok, type Result } from './errors.ts';
import { readPlan, type Plan, type ReadOptions } from './plans.ts';
import { planQuery } from './query.ts';
import type { FunctionDef, SchemaCache } from './schema-cache.ts';
import { ident, Params, type Source } from './sql.ts';

export type RpcCall = {
  fn: FunctionDef;
  args: Record<string, unknown> | undefined;
  whole: unknown;
};

/**
 * Chooses the overload whose parameter names cover the given keys and whose required
 * parameters are all given, or a single unnamed json/jsonb parameter taking the whole body.
 */
export function resolveFunction(
  cache: SchemaCache,
  name: string,
  keys: string[],
  exact: boolean,
): Result<FunctionDef> {
  const overloads = cache.functions.get(name) ?? [];
  const matches = overloads.filter((f) => {
    if (f.args.length === 1 && f.args[0]?.name === '' && /^jsonb?$/.test(f.args[0].type))
      return true;
    const names = f.args.map((a) => a.name);
    const required = f.args.filter((a) => !a.hasDefault).map((a) => a.name);
    return (
      required.every((n) => keys.includes(n)) && (!exact || keys.every((k) => names.includes(k)))
    );
  });
  const [only] = matches;
  if (matches.length === 1 && only) return ok(only);
  if (matches.length > 1) {
    const sig = (f: FunctionDef) =>
      `public.${f.name}(${f.args.map((a) => `${a.name} => ${a.type}`).join(', ')})`;
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
  const sorted = [...keys].sort();
  const described = sorted.length ? `(${sorted.join(', ')})` : ' without parameters';
  return fail(
    apiError(
      404,
      'PGRST202',
      `Could not find the function public.${name}${described} in the schema cache`,
      `Searched for the function public.${name}${sorted.length ? ` with parameters ${sorted.join(', ')}` : ' without parameters'} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
    ),
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
  const fnName = `public.${ident(fn.name)}`;
  let from: string;
  let invoke: string;
  const unnamedJson = fn.args.length === 1 && fn.args[0]?.name === '';
  if (unnamedJson) {
    invoke = `${fnName}(${params.add(JSON.stringify(call.whole ?? {}))}::${fn.args[0]?.type ?? 'json'})`;
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
  const base = fn.table ? cache.relations.get(fn.table) : undefined;
  const rowSource: Source = {
    name: base?.name ?? fn.name,
    columns: base?.columns ?? new Map(fn.columns.map((c) => [c.name, c])),
    table: Boolean(base),
  };
  const node = planQuery(cache, rowSource, query, argKeys);
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
