import { isOpaqueKey, jwtForOpaqueKey, type ApiKeys } from './api-keys.ts';
import type { Database, Queryable, QueryResult, Statement } from './db/index.ts';
import { durationSettingMs } from './db/duration-setting.ts';
import { verifyJwt, type JwtClaims, type JwtFailure, type JwtKeyring } from './jwt.ts';

/** Who a request acts as, after its JWT was verified. */
export type Identity = { role: string; claims: JwtClaims; token: string };

export type IdentityFailure = JwtFailure | 'missing' | 'invalid_api_key';

/** `detail` is jose's wording when the token itself failed to verify (see `JwtResult`). */
export type IdentityResult =
  | { ok: true; identity: Identity }
  | { ok: false; reason: IdentityFailure; message: string; detail?: string };

/** What a request's credentials are checked against. */
export type Credentials = { keyring: JwtKeyring; keys: ApiKeys };

/** Postgres roles a JWT may switch to, as on hosted Supabase. */
export const API_ROLES = ['anon', 'authenticated', 'service_role'] as const;

type GatewayToken =
  { ok: true; token: string } | { ok: false; reason: IdentityFailure; message: string };

const INVALID_API_KEY = {
  ok: false,
  reason: 'invalid_api_key',
  message: 'Invalid API key',
} as const;

/**
 * The token the Supabase gateway hands on: the bearer of `Authorization` wins, else the
 * `apikey`; an opaque key (`sb_publishable_…` / `sb_secret_…`) in either place stands for the
 * legacy JWT of its role, and one this project did not issue is refused before any service.
 */
export function gatewayToken(
  headers: { authorization?: string | null | undefined; apikey?: string | null | undefined },
  keys: ApiKeys,
): GatewayToken {
  const bearer = headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const apikey = headers.apikey ?? undefined;
  let fromKey: string | undefined;
  if (apikey !== undefined && isOpaqueKey(apikey)) {
    fromKey = jwtForOpaqueKey(apikey, keys);
    if (fromKey === undefined) return INVALID_API_KEY;
  }
  if (bearer !== undefined && isOpaqueKey(bearer)) {
    const translated = jwtForOpaqueKey(bearer, keys);
    return translated === undefined ? INVALID_API_KEY : { ok: true, token: translated };
  }
  const token = bearer ?? fromKey ?? apikey;
  if (!token) return { ok: false, reason: 'missing', message: 'No API key found in request' };
  return { ok: true, token };
}

/**
 * Resolves the caller the way the Supabase gateway and PostgREST do (`gatewayToken`); the
 * token must verify with the project's keys and its `role` claim picks the database role (a
 * token without one acts as `anon`).
 */
export async function identify(
  headers: { authorization?: string | null | undefined; apikey?: string | null | undefined },
  credentials: Credentials,
): Promise<IdentityResult> {
  const passed = gatewayToken(headers, credentials.keys);
  if (!passed.ok) return passed;
  const { token } = passed;
  const verified = await verifyJwt(token, credentials.keyring);
  if (!verified.ok) return verified;
  const role = verified.claims.role ?? 'anon';
  if (!(API_ROLES as readonly string[]).includes(role)) {
    return { ok: false, reason: 'bad_claims', message: `role "${role}" does not exist` };
  }
  return { ok: true, identity: { role, claims: { ...verified.claims, role }, token } };
}

export type RequestInfo = {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** `search_path` as PostgREST sets it (the request's schema, then db-extra-search-path). */
  searchPath?: string;
  /**
   * The caller's role's `statement_timeout` (PostgREST applies the impersonated role's
   * settings; SET ROLE alone does not). Undefined keeps the connection's own.
   */
  statementTimeout?: string | undefined;
};

/** A client repeats one token for its whole life: its claims are serialised once. */
const claimsJson = new WeakMap<JwtClaims, string>();

function serializedClaims(claims: JwtClaims): string {
  let json = claimsJson.get(claims);
  if (json === undefined) {
    json = JSON.stringify(claims);
    claimsJson.set(claims, json);
  }
  return json;
}

/** The `search_path` of a request to `public` on hosted Supabase (db-extra-search-path). */
const DEFAULT_SEARCH_PATH = '"public", "extensions"';

const SETTINGS = [
  'search_path',
  'role',
  'request.jwt.claims',
  'request.method',
  'request.path',
  'request.headers',
  'transaction_read_only',
  'statement_timeout',
];

/**
 * The settings PostgREST gives every request, as one prepared statement with bound values (the
 * names are this file's constants). It selects no columns: the values set would otherwise come
 * back in a row the driver has to describe and parse on every request.
 */
const SETTINGS_SQL = `select from (select ${SETTINGS.map((name, i) =>
  name === 'statement_timeout'
    ? `set_config('${name}', coalesce($${i + 1}, current_setting('${name}')), true)`
    : `set_config('${name}', $${i + 1}, true)`,
).join(', ')} offset 0) settings`;

function settingsStatement(
  identity: Pick<Identity, 'role' | 'claims'>,
  request: RequestInfo,
): Statement {
  const values = [
    request.searchPath ?? DEFAULT_SEARCH_PATH,
    identity.role,
    serializedClaims(identity.claims),
    request.method,
    request.path,
    JSON.stringify(request.headers ?? {}),
    readsOnly(request) ? 'on' : 'off',
    request.statementTimeout ?? null,
  ];
  return { sql: SETTINGS_SQL, params: values };
}

/**
 * GET and HEAD run read-only, as PostgREST runs them: a function that writes must be called
 * with POST (a write answers 25006, HTTP 405).
 */
function readsOnly(request: RequestInfo): boolean {
  return request.method === 'GET' || request.method === 'HEAD';
}

/**
 * Runs `fn` in one transaction as the identity's database role with `request.jwt.claims` set,
 * exactly as PostgREST does, so Row Level Security decides what the request may see and do.
 * The settings travel with BEGIN (one round trip on PostgreSQL).
 */
export function runAs<T>(
  db: Database,
  identity: Pick<Identity, 'role' | 'claims'>,
  request: RequestInfo,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return db.transaction(fn, {
    prelude: settingsStatement(identity, request),
    timeoutMs: durationSettingMs(request.statementTimeout),
  });
}

/**
 * `runAs` for statements that need no decision in between: settings and statements
 * leave together, so the whole request costs one round trip on PostgreSQL. Resolves to the
 * statements' results (without the settings').
 */
export function batchAs(
  db: Database,
  identity: Pick<Identity, 'role' | 'claims'>,
  request: RequestInfo,
  statements: readonly Statement[],
): Promise<QueryResult[]> {
  return db
    .batch([settingsStatement(identity, request), ...statements], {
      readOnly: readsOnly(request),
      timeoutMs: durationSettingMs(request.statementTimeout),
    })
    .then(withoutSettings);
}

const withoutSettings = (results: QueryResult[]) => results.slice(1);
