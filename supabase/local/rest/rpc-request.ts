import { ok, apiError, type ApiError, type Result } from './errors.ts';
import { readBody, readJson } from './body.ts';
import {
  explainReply,
  execute,
  maxAffectedError,
  planWith,
  readOptions,
  readReply,
  type Outcome,
} from './execute.ts';

import type { RestRequest } from './request.ts';
import { resolveFunction, rpcPlan, type BodyKind } from './rpc.ts';
import {
  contentRange,
  errorReply,
  JSON_TYPE,
  reply,
  singularError,
  type Reply,
} from './response.ts';
import type { RestState } from './state.ts';

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

/** GET, HEAD and POST on `/rpc/{function}`. */
export async function rpcRequest(s: RestState, r: RestRequest): Promise<Reply> {
  const query = r.query;
  let whole: unknown;
  let args: Record<string, unknown> = {};
  let kind: BodyKind = 'json';
  if (r.method === 'POST') {
    const body = await rpcBody(r);
    if (!body.ok) return errorReply(body.error);
    ({ whole, args, kind } = body.value);
  }
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
    return rpcPlan(
      c,
      { fn: fn.value, args, whole, singleObject },
      query,
      argKeys,
      readOptions(s, r),
    );
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
