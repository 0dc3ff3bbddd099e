import { apiError, fail, type ApiError, type Result } from './errors.ts';
import { readJson } from './body.ts';
import {
  explainReply,
  execute,
  maxAffectedError,
  planWith,
  readOptions,
  readReply,
  type Outcome,
} from './execute.ts';
import { fuzzyBest, NAME_HINT_SCORE } from './fuzzy.ts';

import { insertPlan, readPlan, updateOrDeletePlan } from './plans.ts';
import { planQuery, relationSource } from './query.ts';
import type { RestRequest } from './request.ts';
import {
  contentType,
  errorReply,
  JSON_TYPE,
  reply,
  singularError,
  type Reply,
} from './response.ts';
import type { SchemaCache } from './schema-cache.ts';
import { ident, Params } from './sql.ts';
import type { RestState } from './state.ts';

/** A table or view: reads go read-only, writes in one transaction. */
export function tableRequest(s: RestState, r: RestRequest): Promise<Reply> {
  return r.method === 'GET' || r.method === 'HEAD' ? readTable(s, r) : writeTable(s, r);
}

/** GET and HEAD on a table or view. */
async function readTable(s: RestState, r: RestRequest): Promise<Reply> {
  const query = r.query;
  const planned = await planWith(s, r, (c) => {
    const source = relationSource(c, r.name);
    if (!source) return tableMissing(c, r.name);
    const node = planQuery(c, source, query);
    if (!node.ok) return node;
    return readPlan(
      `${ident(c.schema)}.${ident(r.name)}`,
      node.value,
      new Params(),
      readOptions(s, r),
    );
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
