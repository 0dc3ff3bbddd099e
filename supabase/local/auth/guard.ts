import type { Context } from 'hono';
import type { PlatformContext } from '../context.ts';
import { isOpaqueKey, jwtForOpaqueKey } from '../api-keys.ts';
import { verifyJwt, type JwtClaims, type JwtFailure } from '../jwt.ts';
import { authError } from './errors.ts';
import { findUserById, type UserRow } from './users.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** golang-jwt's wording, as GoTrue prefixes it with "invalid JWT: unable to parse or verify signature, ". */
const JWT_FAILURE: Record<JwtFailure, string> = {
  malformed: 'token is malformed: could not base64 decode header',
  bad_alg: 'token is unverifiable: signing method is invalid',
  bad_signature: 'token signature is invalid: signature is invalid',
  expired: 'token has invalid claims: token is expired',
  bad_claims: 'token has invalid claims',
};

/** GoTrue's `requireAuthentication`: a verified bearer JWT, its claims for the handler. */
export async function requireClaims(c: Context, ctx: PlatformContext): Promise<JwtClaims> {
  const header = c.req.header('Authorization') ?? '';
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  // The gateway hands GoTrue the legacy JWT an opaque key (`sb_secret_…`) stands for.
  const token =
    bearer !== undefined && isOpaqueKey(bearer) ? jwtForOpaqueKey(bearer, ctx.keys) : bearer;
  if (!token)
    throw authError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  const verified = await verifyJwt(token, ctx.keyring);
  if (!verified.ok) {
    throw authError(
      403,
      'bad_jwt',
      `invalid JWT: unable to parse or verify signature, ${JWT_FAILURE[verified.reason]}`,
    );
  }
  return verified.claims;
}

export type Caller = { claims: JwtClaims; user: UserRow; sessionId: string | undefined };

/** A signed-in user whose session (if the token names one) and account still exist. */
export async function requireUser(c: Context, ctx: PlatformContext): Promise<Caller> {
  const claims = await requireClaims(c, ctx);
  if (typeof claims.sub !== 'string' || !UUID.test(claims.sub)) {
    throw authError(403, 'bad_jwt', 'invalid claim: missing sub claim');
  }
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : undefined;
  if (sessionId !== undefined) {
    const found = UUID.test(sessionId)
      ? (await ctx.db.query('select 1 from auth.sessions where id = $1', [sessionId])).rows
      : [];
    if (found.length === 0) {
      throw authError(
        403,
        'session_not_found',
        'Session from session_id claim in JWT does not exist',
      );
    }
  }
  const user = await findUserById(ctx.db, claims.sub);
  if (!user) throw authError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  return { claims, user, sessionId };
}

const ADMIN_ROLES = ['service_role', 'supabase_admin'];

export async function requireAdmin(c: Context, ctx: PlatformContext): Promise<void> {
  const claims = await requireClaims(c, ctx);
  if (typeof claims.role !== 'string' || !ADMIN_ROLES.includes(claims.role)) {
    throw authError(403, 'not_admin', 'User not allowed');
  }
}
