import type { IncomingHttpHeaders } from 'node:http';
import type { PlatformContext } from '../context.ts';
import type { Queryable, QueryResult, Statement } from '../db/index.ts';
import { batchAs, runAs, type Identity } from '../request-auth.ts';
import {
  Abort,
  apiError,
  fail,
  fromDatabaseError,
  ok,
  type ApiError,
  type Result,
} from './errors.ts';
import {
  checkProfile,
  negotiate,
  parsePrefer,
  parseRange,
  type Preferences,
  type Representation,
} from './negotiate.ts';
import {
  insertPlan,
  readPlan,
  totalOf,
  updateOrDeletePlan,
  type Plan,
  type RowsResult,
} from './plans.ts';
import { readBody, readJson, type BodySource } from './body.ts';
import { fuzzyBest, NAME_HINT_SCORE } from './fuzzy.ts';
import { createIdentityCache } from './identity-cache.ts';
import { planQuery, relationSource } from './query.ts';
import { resolveFunction, rpcPlan, type BodyKind } from './rpc.ts';
import { ident, Params } from './sql.ts';
import {
  contentRange,
  contentType,
  errorReply,
  JSON_TYPE,
  reply,
  singularError,
  type Reply,
} from './response.ts';
import { createSchemaCacheHolder, type SchemaCache } from './schema-cache.ts';
import { checkEmbedDepth, checkResponseSize } from './limits.ts';
import {
  PGRST_CHANNEL,
  readRestSettings,
  rollsBack,
  searchPathOf,
  type RestSettings,
} from './settings.ts';

const TABLE_METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'];
const RPC_METHODS = ['GET', 'HEAD', 'POST'];
/** Codes that may only mean the cache predates a migration: reload once and plan again. */
const STALE = new Set(['PGRST200', 'PGRST202', 'PGRST204', 'PGRST205', '42703']);
const CATALOG_CHANGED = new Set(['42703', '42P01', '42883']);

/** One request below /rest/v1, as rest/http.ts hands it over from Node. */
export type RestInput = {
  method: string;
  /** Node's parsed headers, by lower-case name. */
  headers: IncomingHttpHeaders;
  /** The query string, without `?`. */
  query: string;
  body: BodySource;
};

type RestRequest = {
  method: string;
  headers: IncomingHttpHeaders;
  /** All request headers as one string each, for `request.headers`. */
  settingsHeaders: Record<string, string>;
  body: BodySource;
  query: URLSearchParams;
  name: string;
  rpc: boolean;
  head: boolean;
  identity: Identity;
  representation: Representation;
  prefer: Preferences;
  /** The exposed schema asked for by Accept-Profile / Content-Profile, or the default. */
  schema: string;
  /** Whether the transaction ends in ROLLBACK (db-tx-end, `Prefer: tx=`). */
  rollback: boolean;
};

type Outcome = { rows?: RowsResult; affected?: number; scalar?: string | null };

function toOutcome(plan: Plan, results: readonly QueryResult[]): Outcome {
  if (plan.shape === 'affected') {
    return { affected: results.reduce((sum, r) => sum + r.rowCount, 0) };
  }
  if (plan.shape === 'explain') return { scalar: explainText(plan.format, results[0]) };
  const row = results.at(-1)?.rows[0] as (RowsResult & { body: string | null }) | undefined;
  if (plan.shape !== 'rows') return { scalar: row?.body ?? null };
  if (!plan.explain || !row) return { rows: row };
  return { rows: { ...row, total: totalOf(plan, results[0], row.total) } };
}

/** EXPLAIN's output as PostgREST sends it: the JSON plan, or the text plan's lines. */
function explainText(format: 'json' | 'text', result: QueryResult | undefined): string {
  const cells = (result?.rows ?? []).map((row) => Object.values(row)[0]);
  if (format === 'text') return cells.map(String).join('\n');
  const [cell] = cells;
  return typeof cell === 'string' ? cell : JSON.stringify(cell ?? []);
}

/**
 * The plan of a read instead of its rows, when `Accept` asks for it and the platform allows it
 * (PostgREST's db-plan-enabled).
 */
async function explainReply(s: RestState, r: RestRequest, plan: Plan): Promise<Reply> {
  if (r.representation.kind !== 'plan' || plan.shape === 'affected' || plan.shape === 'explain') {
    return errorReply(apiError(406, 'PGRST107', 'None of these media types are available'));
  }
  const { format, options } = r.representation;
  const explained: Plan = {
    shape: 'explain',
    format,
    sql: `explain (${[`format ${format}`, ...options].join(', ')}) ${plan.sql}`,
    params: plan.params,
  };
  const outcome = await execute(s, r, explained);
  if (!outcome.ok) return errorReply(outcome.error, r.head);
  const forType = one(r.headers.accept)?.match(/for="?([^";]+)/)?.[1] ?? 'application/json';
  return reply(200, r.head ? null : (outcome.value.scalar ?? ''), {
    'content-type': `application/vnd.pgrst.plan+${format}; for="${forType}"; charset=utf-8`,
  });
}

/** What a plan sends to PostgreSQL, in order. */
function statementsOf(plan: Plan): readonly Statement[] {
  if (plan.shape === 'affected') return plan.statements;
  return plan.shape === 'rows' && plan.explain ? [plan.explain, plan] : [plan];
}

/** Carries a finished answer out of a transaction that `Prefer: tx=rollback` must undo. */
class Rollback extends Error {
  constructor(readonly outcome: Outcome) {
    super('rollback');
  }
}

/**
 * Runs a plan's statements in `tx` and lets `veto` refuse the outcome before COMMIT; an
 * outcome that must be rolled back leaves as a `Rollback`. (A function of its own rather than
 * a closure in `execute`, which most requests leave through the batch path without needing it.)
 */
async function decide(
  tx: Queryable,
  plan: Plan,
  statements: readonly Statement[],
  veto: ((o: Outcome) => ApiError | undefined) | undefined,
  rollback: boolean,
): Promise<Outcome> {
  const results: QueryResult[] = [];
  for (const s of statements) results.push(await tx.query(s.sql, s.params));
  const outcome = toOutcome(plan, results);
  const problem = veto?.(outcome);
  if (problem) throw new Abort(problem);
  if (rollback) throw new Rollback(outcome);
  return outcome;
}

function authError(reason: string, message: string): ApiError {
  if (reason === 'missing') {
    return apiError(
      401,
      'PGRST301',
      'No API key found in request',
      null,
      'No `apikey` request header or url param was found.',
    );
  }
  const code = reason === 'expired' || reason === 'bad_claims' ? 'PGRST303' : 'PGRST301';
  return {
    ...apiError(401, code, message),
    headers: {
      'www-authenticate': `Bearer error="invalid_token", error_description="${message.replace(/"/g, "'")}"`,
    },
  };
}

export type Rest = {
  /** Answers a request for table or view `name`, or for function `name` when `rpc`. */
  handle(input: RestInput, name: string, rpc: boolean): Promise<Reply>;
  /** Stops listening for `NOTIFY pgrst`. */
  close(): Promise<void>;
};

/** What every request reads: the platform, settings, schema caches and the identity cache. */
type RestState = {
  readonly ctx: PlatformContext;
  /** PostgREST's settings in force, replaced on `NOTIFY pgrst, 'reload config'`. */
  settings: RestSettings;
  /** One schema cache per exposed schema asked for, the default (first) one loaded at start. */
  readonly caches: Map<string, ReturnType<typeof createSchemaCacheHolder>>;
  readonly identifyCached: ReturnType<typeof createIdentityCache>;
};

/**
 * The REST API, its settings read and its default schema's cache loading; it listens on
 * PostgREST's channel: `NOTIFY pgrst, 'reload schema'` (or no payload) reloads the schema
 * caches, `'reload config'` the settings and then the caches.
 */
export async function createRest(ctx: PlatformContext): Promise<Rest> {
  const state: RestState = {
    ctx,
    settings: await readRestSettings(ctx),
    caches: new Map(),
    identifyCached: createIdentityCache(ctx),
  };
  warmDefaultSchema(state);
  const unlisten = await ctx.db.listen(PGRST_CHANNEL, (payload) => void onPgrst(state, payload));
  return { handle: (input, name, rpc) => handle(state, input, name, rpc), close: unlisten };
}

function warmDefaultSchema(s: RestState): void {
  cacheOf(s, s.settings.schemas[0] ?? 'public')
    .get()
    .catch((e: unknown) => s.ctx.log.error({ msg: 'rest schema cache failed', error: String(e) }));
}

async function onPgrst(s: RestState, payload: string): Promise<void> {
  const what = payload.trim().toLowerCase();
  try {
    if (what === 'reload config') {
      s.settings = await readRestSettings(s.ctx);
      s.ctx.log.info({ msg: 'rest config reloaded' });
    } else if (what !== '' && what !== 'reload schema') {
      return;
    }
    s.caches.clear();
    warmDefaultSchema(s);
  } catch (e) {
    s.ctx.log.error({ msg: 'rest reload failed', payload, error: String(e) });
  }
}

/** The cache of an exposed schema (handle() lets only those through), made when first asked. */
function cacheOf(s: RestState, schema: string) {
  let cache = s.caches.get(schema);
  if (!cache) {
    cache = createSchemaCacheHolder(s.ctx.db, schema);
    s.caches.set(schema, cache);
  }
  return cache;
}

async function planWith(
  s: RestState,
  r: RestRequest,
  build: (c: SchemaCache) => Result<Plan> | Promise<Result<Plan>>,
): Promise<Result<Plan>> {
  const cache = cacheOf(s, r.schema);
  let planned = await build(await cache.get());
  if (!planned.ok && STALE.has(planned.error.code)) planned = await build(await cache.reload());
  // After planning, so a select naming what does not exist answers as PostgREST would.
  const tooDeep =
    planned.ok && checkEmbedDepth(r.query.get('select'), s.ctx.config.restMaxEmbedDepth);
  return tooDeep ? fail(tooDeep) : planned;
}

/**
 * Runs the plan as the caller. `veto` inspects the outcome before COMMIT and may refuse it
 * (single-object and max-affected preferences); without one, and without `Prefer: tx=rollback`,
 * the whole transaction is one batch — one round trip to PostgreSQL.
 */
async function execute(
  s: RestState,
  r: RestRequest,
  plan: Plan,
  veto?: (o: Outcome) => ApiError | undefined,
): Promise<Result<Outcome>> {
  const request = {
    method: r.method,
    path: r.rpc ? `/rpc/${r.name}` : `/${r.name}`,
    headers: r.settingsHeaders,
    searchPath: searchPathOf(r.schema, s.settings),
    statementTimeout: (await cacheOf(s, r.schema).get()).statementTimeouts.get(r.identity.role),
  };
  const statements = statementsOf(plan);
  try {
    if (veto || r.rollback) {
      return ok(
        await runAs(s.ctx.db, r.identity, request, (tx) =>
          decide(tx, plan, statements, veto, r.rollback),
        ),
      );
    }
    return ok(toOutcome(plan, await batchAs(s.ctx.db, r.identity, request, statements)));
  } catch (e) {
    if (e instanceof Rollback) return ok(e.outcome);
    const mapped = fromDatabaseError(e, r.identity.role);
    if (!mapped) throw e;
    if (CATALOG_CHANGED.has(mapped.code)) {
      void cacheOf(s, r.schema)
        .reload()
        .catch(() => undefined);
    }
    return fail(mapped);
  }
}

function readReply(r: RestRequest, outcome: Outcome, offset: number): Reply {
  const rows = outcome.rows;
  const page = Number(rows?.page ?? 0);
  const total = rows?.total === null || rows?.total === undefined ? undefined : Number(rows.total);
  if (total !== undefined && offset > total) {
    return errorReply(
      {
        ...apiError(
          416,
          'PGRST103',
          'Requested range not satisfiable',
          `An offset of ${offset} was requested, but there are only ${total} rows.`,
        ),
        headers: { 'content-range': `*/${total}` },
      },
      r.head,
    );
  }
  if (r.representation.kind === 'object' && page !== 1)
    return errorReply(singularError(page), r.head);
  const status = total !== undefined && page < total ? 206 : 200;
  const body = r.head ? null : (rows?.body ?? 'null');
  return reply(status, body, {
    'content-type': contentType(r.representation),
    'content-range': contentRange(offset, page, total),
  });
}

/** A table or view: reads go read-only, writes in one transaction. */
function tableRequest(s: RestState, r: RestRequest): Promise<Reply> {
  return r.method === 'GET' || r.method === 'HEAD' ? readTable(s, r) : writeTable(s, r);
}

/** GET and HEAD on a table or view. */
async function readTable(s: RestState, r: RestRequest): Promise<Reply> {
  const query = r.query;
  const range = parseRange(r.headers.range ?? null);
  const planned = await planWith(s, r, (c) => {
    const source = relationSource(c, r.name);
    if (!source) return tableMissing(c, r.name);
    const node = planQuery(c, source, query);
    if (!node.ok) return node;
    return readPlan(`${ident(c.schema)}.${ident(r.name)}`, node.value, new Params(), {
      representation: r.representation,
      prefer: r.prefer,
      head: r.head,
      range,
      maxRows: s.settings.maxRows,
      aggregates: s.settings.aggregates,
    });
  });
  if (!planned.ok) return errorReply(planned.error, r.head);
  if (r.representation.kind === 'plan') return explainReply(s, r, planned.value);
  const offset = planned.value.shape === 'rows' ? planned.value.offset : 0;
  const outcome = await execute(s, r, planned.value);
  return outcome.ok ? readReply(r, outcome.value, offset) : errorReply(outcome.error, r.head);
}

/** POST, PATCH and DELETE on a table or view. */
async function writeTable(s: RestState, r: RestRequest): Promise<Reply> {
  const method = r.method;
  const query = r.query;
  let body: unknown;
  if (method !== 'DELETE') {
    const parsed = await readJson(r.headers, r.body, false);
    if (!parsed.ok) return errorReply(parsed.error);
    body = parsed.value;
    if (method === 'PATCH' && (body === null || typeof body !== 'object' || Array.isArray(body))) {
      return errorReply(
        apiError(400, 'PGRST102', 'Empty or invalid json', 'PATCH expects a single JSON object'),
      );
    }
  }
  const wantRows = r.prefer.return === 'representation';
  const opts = { prefer: r.prefer, representation: r.representation, wantRows };
  const planned = await planWith(s, r, (c) => {
    const relation = c.relations.get(r.name);
    if (!relation) return tableMissing(c, r.name);
    if (method === 'POST') return insertPlan(c, relation, query, body, opts);
    return updateOrDeletePlan(
      c,
      relation,
      query,
      body as Record<string, unknown> | undefined,
      opts,
    );
  });
  if (!planned.ok) return errorReply(planned.error);
  if (method === 'PATCH' && Object.keys(body as object).length === 0) {
    return wantRows ? reply(200, '[]', { 'content-type': JSON_TYPE }) : reply(204, null);
  }
  const outcome = await execute(s, r, planned.value, writeVeto(r));
  if (!outcome.ok) return errorReply(outcome.error);
  const o = outcome.value;
  const count = o.affected ?? Number(o.rows?.page ?? 0);
  const headers: Record<string, string> = {
    'content-range': `*/${r.prefer.count ? count : '*'}`,
  };
  let status = method === 'POST' ? 201 : wantRows ? 200 : 204;
  if (
    method === 'POST' &&
    r.prefer.resolution === 'merge-duplicates' &&
    o.rows &&
    count > 0 &&
    Number(o.rows.inserted ?? 0) === 0
  ) {
    status = 200;
  }
  if (!wantRows) return reply(status, null, headers);
  headers['content-type'] = contentType(r.representation);
  const json = o.rows?.body ?? '[]';
  return reply(status, json, headers);
}

/**
 * What a write must be refused for before COMMIT: a single object asked for (`Accept:
 * …vnd.pgrst.object`) and not exactly one row, or more rows than `Prefer: max-affected`.
 */
function writeVeto(r: RestRequest): ((o: Outcome) => ApiError | undefined) | undefined {
  const maxAffected = r.prefer.strict ? r.prefer.maxAffected : undefined;
  if (r.representation.kind !== 'object' && maxAffected === undefined) return undefined;
  return (o: Outcome) => {
    const count = o.affected ?? Number(o.rows?.page ?? 0);
    if (r.representation.kind === 'object' && count !== 1) return singularError(count);
    if (maxAffected !== undefined && count > maxAffected) return maxAffectedError(count);
    return undefined;
  };
}

/** Content types whose whole body goes to a function's single unnamed parameter. */
const RAW_BODIES: Record<string, BodyKind> = {
  'text/plain': 'text',
  'text/xml': 'xml',
  'application/octet-stream': 'bytea',
};

/** The body of an RPC POST: JSON arguments, or raw text/xml/bytes for an unnamed parameter. */
async function rpcBody(
  r: RestRequest,
): Promise<Result<{ whole: unknown; args: Record<string, unknown>; kind: BodyKind }>> {
  const type = (r.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const kind = RAW_BODIES[type];
  if (kind) {
    const bytes = await readBody(r.headers, r.body);
    if (!bytes.ok) return bytes;
    const whole = kind === 'bytea' ? bytes.value : bytes.value.toString('utf8');
    return ok({ whole, args: {}, kind });
  }
  const parsed = await readJson(r.headers, r.body, true);
  if (!parsed.ok) return parsed;
  const whole = parsed.value;
  const args =
    whole !== null && typeof whole === 'object' && !Array.isArray(whole)
      ? (whole as Record<string, unknown>)
      : {};
  return ok({ whole, args, kind: 'json' });
}

/**
 * What an RPC's outcome must be refused for before COMMIT: not exactly one row when a single
 * object is asked for, more rows than `Prefer: max-affected` (with handling=strict).
 */
function rpcVeto(r: RestRequest): (o: Outcome) => ApiError | undefined {
  return (o) => {
    const rows = Number(o.rows?.page ?? 0);
    if (r.representation.kind === 'object' && o.rows && rows !== 1) return singularError(rows);
    const max = r.prefer.strict ? r.prefer.maxAffected : undefined;
    return max !== undefined && rows > max ? maxAffectedError(rows) : undefined;
  };
}

const maxAffectedError = (rows: number) =>
  apiError(
    400,
    'PGRST124',
    'Query result exceeds max-affected preference constraint',
    `The query affects ${rows} rows`,
  );

async function rpcRequest(s: RestState, r: RestRequest): Promise<Reply> {
  const query = r.query;
  let whole: unknown;
  let args: Record<string, unknown> = {};
  let kind: BodyKind = 'json';
  if (r.method === 'POST') {
    const body = await rpcBody(r);
    if (!body.ok) return errorReply(body.error);
    ({ whole, args, kind } = body.value);
  }
  const range = parseRange(r.headers.range ?? null);
  let argKeys = new Set<string>();
  let returnsSet = false;
  const planned = await planWith(s, r, (c) => {
    let keys = Object.keys(args);
    if (r.method !== 'POST') {
      const names = new Set(
        (c.functions.get(r.name) ?? []).flatMap((f) => f.args.map((a) => a.name)),
      );
      keys = [...new Set([...query.keys()].filter((k) => names.has(k)))];
      args = Object.fromEntries(
        keys.map((k) => [k, query.getAll(k).length > 1 ? query.getAll(k) : query.get(k)]),
      );
    }
    argKeys = new Set(keys);
    const post = r.method === 'POST';
    const singleObject = post && kind === 'json' && r.prefer.singleObject;
    const fn = resolveFunction(c, { name: r.name, keys, post, body: kind, singleObject });
    if (!fn.ok) return fn;
    returnsSet = fn.value.returnsSet;
    return rpcPlan(c, { fn: fn.value, args, whole, singleObject }, query, argKeys, {
      representation: r.representation,
      prefer: r.prefer,
      head: r.head,
      range,
      maxRows: s.settings.maxRows,
      aggregates: s.settings.aggregates,
    });
  });
  if (!planned.ok) return errorReply(planned.error, r.head);
  const plan = planned.value;
  if (r.representation.kind === 'plan') return explainReply(s, r, plan);
  const limited = r.prefer.strict && r.prefer.maxAffected !== undefined;
  if (limited && !returnsSet) {
    return errorReply(
      apiError(
        400,
        'PGRST128',
        'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
      ),
      r.head,
    );
  }
  const outcome = await execute(
    s,
    r,
    plan,
    r.representation.kind === 'object' || limited ? rpcVeto(r) : undefined,
  );
  if (!outcome.ok) return errorReply(outcome.error, r.head);
  if (plan.shape === 'void') return reply(204, null);
  if (plan.shape === 'scalar') {
    // One value is one row to PostgREST: counted, it is a total of 1.
    return reply(200, r.head ? null : (outcome.value.scalar ?? 'null'), {
      'content-type': JSON_TYPE,
      'content-range': contentRange(0, 1, r.prefer.count ? 1 : undefined),
    });
  }
  const offset = plan.shape === 'rows' ? plan.offset : 0;
  return readReply(r, outcome.value, offset);
}

async function handle(s: RestState, input: RestInput, name: string, rpc: boolean): Promise<Reply> {
  const { method, headers } = input;
  const head = method === 'HEAD';
  if (!(rpc ? RPC_METHODS : TABLE_METHODS).includes(method)) {
    return errorReply(apiError(405, 'PGRST117', `Unsupported HTTP method: ${method}`));
  }
  const write = method !== 'GET' && !head;
  const profile = checkProfile(
    one(write ? headers['content-profile'] : headers['accept-profile']),
    s.settings.schemas,
  );
  if (!profile.ok) return errorReply(profile.error, head);
  const who = await s.identifyCached(headers.authorization ?? null, one(headers.apikey));
  if (!who.ok) return errorReply(authError(who.reason, who.message), head);
  const representation = negotiate(headers.accept ?? null);
  if (!representation.ok) return errorReply(representation.error, head);
  if (representation.value.kind === 'plan' && ((write && !rpc) || !s.settings.planEnabled)) {
    const offered = one(headers.accept) ?? '';
    return errorReply(
      apiError(406, 'PGRST107', `None of these media types are available: ${offered}`),
      head,
    );
  }
  const prefer = parsePrefer(one(headers.prefer));
  if (!prefer.ok) return errorReply(prefer.error, head);
  const query = new URLSearchParams(input.query);
  const r: RestRequest = {
    method,
    headers,
    settingsHeaders: settingsHeaders(headers),
    body: input.body,
    query,
    name,
    rpc,
    head,
    identity: who.identity,
    representation: representation.value,
    prefer: prefer.value,
    schema: profile.value,
    rollback: rollsBack(s.settings.txEnd, prefer.value.tx),
  };
  const answer = await (rpc ? rpcRequest(s, r) : tableRequest(s, r));
  const tooLarge = checkResponseSize(answer.body, s.ctx.config.restMaxResponseBytes);
  return tooLarge ? errorReply(tooLarge) : answer;
}

/** A header Node may hand over repeated (one it neither joins nor dedupes itself), as one value. */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

const one = (value: string | string[] | undefined) => headerText(value) ?? null;

/** `request.headers` as PostgREST sets it: every header, repeated ones joined. */
function settingsHeaders(parsed: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in parsed) {
    const value = headerText(parsed[name]);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

function tableMissing(cache: SchemaCache, name: string): Result<never> {
  const near = fuzzyBest([...cache.relations.keys()], name, NAME_HINT_SCORE);
  return fail(
    apiError(
      404,
      'PGRST205',
      `Could not find the table '${cache.schema}.${name}' in the schema cache`,
      null,
      near ? `Perhaps you meant the table '${cache.schema}.${near}'` : null,
    ),
  );
}
