import type { Queryable, QueryResult, Statement } from '../db/index.ts';
import { batchAs, runAs } from '../request-auth.ts';
import {
  Abort,
  apiError,
  fail,
  fromDatabaseError,
  ok,
  type ApiError,
  type Result,
} from './errors.ts';
import { checkEmbedDepth } from './limits.ts';
import { parseRange } from './negotiate.ts';
import { totalOf, type Plan, type ReadOptions, type RowsResult } from './plans.ts';
import { one, type RestRequest } from './request.ts';
import {
  contentRange,
  contentType,
  errorReply,
  reply,
  singularError,
  type Reply,
} from './response.ts';
import type { SchemaCache } from './schema-cache.ts';
import { searchPathOf } from './settings.ts';
import { cacheOf, type RestState } from './state.ts';

/** Codes that may only mean the cache predates a migration: reload once and plan again. */
const STALE = new Set(['PGRST200', 'PGRST202', 'PGRST204', 'PGRST205', '42703']);
const CATALOG_CHANGED = new Set(['42703', '42P01', '42883']);

/** What a plan's statements came back with. */
export type Outcome = { rows?: RowsResult; affected?: number; scalar?: string | null };

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
export async function explainReply(s: RestState, r: RestRequest, plan: Plan): Promise<Reply> {
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

export async function planWith(
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
export async function execute(
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

export function readReply(r: RestRequest, outcome: Outcome, offset: number): Reply {
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

export const maxAffectedError = (rows: number) =>
  apiError(
    400,
    'PGRST124',
    'Query result exceeds max-affected preference constraint',
    `The query affects ${rows} rows`,
  );

/** How a read (of a table, or of what a function returns) is paged, counted and shaped. */
export function readOptions(s: RestState, r: RestRequest): ReadOptions {
  return {
    representation: r.representation,
    prefer: r.prefer,
    head: r.head,
    range: parseRange(r.headers.range ?? null),
    maxRows: s.settings.maxRows,
    aggregates: s.settings.aggregates,
  };
}
