import type { Database, Queryable } from './db/index.ts';
import { verifyJwt, type JwtClaims, type JwtFailure } from './jwt.ts';

/** Who a request acts as, after its JWT was verified. */
export type Identity = { role: string; claims: JwtClaims; token: string };

export type IdentityResult =
  { ok: true; identity: Identity } | { ok: false; reason: JwtFailure | 'missing'; message: string };

/** Postgres roles a JWT may switch to, as on hosted Supabase. */
export const API_ROLES = ['anon', 'authenticated', 'service_role'] as const;

/**
 * Resolves the caller the way the Supabase gateway and PostgREST do: the bearer token of
 * `Authorization` wins, else the `apikey`; the token must verify with the project secret and its
 * `role` claim picks the database role (a token without one acts as `anon`).
 */
export async function identify(
  headers: { authorization?: string | null | undefined; apikey?: string | null | undefined },
  secret: string,
): Promise<IdentityResult> {
  const bearer = headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const token = bearer ?? headers.apikey ?? undefined;
  if (!token) return { ok: false, reason: 'missing', message: 'No API key found in request' };
  const verified = await verifyJwt(token, secret);
  if (!verified.ok) return verified;
  const role = verified.claims.role ?? 'anon';
  if (!(API_ROLES as readonly string[]).includes(role)) {
    return { ok: false, reason: 'bad_claims', message: `role "${role}" does not exist` };
  }
  return { ok: true, identity: { role, claims: { ...verified.claims, role }, token } };
}

export type RequestInfo = { method: string; path: string; headers?: Record<string, string> };

/**
 * Runs `fn` in one transaction as the identity's database role with `request.jwt.claims` set,
 * exactly as PostgREST does, so Row Level Security decides what the request may see and do.
 */
export function runAs<T>(
  db: Database,
  identity: Pick<Identity, 'role' | 'claims'>,
  request: RequestInfo,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(
      `select set_config('search_path', '"public", "extensions"', true),
              set_config('role', $1, true),
              set_config('request.jwt.claims', $2, true),
              set_config('request.method', $3, true),
              set_config('request.path', $4, true),
              set_config('request.headers', $5, true)`,
      [
        identity.role,
        JSON.stringify(identity.claims),
        request.method,
        request.path,
        JSON.stringify(request.headers ?? {}),
      ],
    );
    return fn(tx);
  });
}
