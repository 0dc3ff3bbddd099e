import { randomInt } from 'node:crypto';
import type { Queryable } from '../db/index.ts';
import type { PlatformContext } from '../context.ts';
import { signAccessToken } from '../jwt.ts';
import { authError } from './errors.ts';
import { findUserById, type UserRow } from './users.ts';
import { userJson, type UserJson } from './user-json.ts';

/** `amr.method` values GoTrue records (docs/platform-wire.md §2.4). */
export type AmrMethod =
  'password' | 'otp' | 'email/signup' | 'magiclink' | 'recovery' | 'invite' | 'email_change';

export type SessionJson = {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserJson;
};

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** GoTrue's refresh tokens are short random strings, unique per row. */
function newRefreshToken(): string {
  return Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

type SessionClaims = { sessionId: string; amr: { method: string; timestamp: number }[] };

async function buildSession(
  ctx: PlatformContext,
  user: UserRow,
  session: SessionClaims,
  refreshToken: string,
): Promise<SessionJson> {
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + ctx.config.jwtExpiry;
  const accessToken = await signAccessToken(
    {
      iss: `${ctx.config.apiExternalUrl}/auth/v1`,
      sub: user.id,
      aud: user.aud || 'authenticated',
      exp,
      iat,
      email: user.email,
      phone: user.phone,
      app_metadata: user.app_metadata,
      user_metadata: user.user_metadata,
      role: user.role || 'authenticated',
      aal: 'aal1',
      amr: session.amr,
      session_id: session.sessionId,
      is_anonymous: user.is_anonymous,
    },
    ctx.keyring,
  );
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: ctx.config.jwtExpiry,
    expires_at: exp,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

async function sessionAmr(tx: Queryable, sessionId: string): Promise<SessionClaims['amr']> {
  const { rows } = await tx.query<{ method: string; timestamp: number }>(
    `select authentication_method as method, extract(epoch from created_at)::int as timestamp
       from auth.mfa_amr_claims where session_id = $1 order by created_at`,
    [sessionId],
  );
  return rows;
}

export type SessionMeta = { userAgent?: string | undefined };

/** Signs a user in: a new session with its first refresh token, and `last_sign_in_at` bumped. */
export async function issueSession(
  ctx: PlatformContext,
  tx: Queryable,
  userId: string,
  method: AmrMethod,
  meta: SessionMeta = {},
): Promise<SessionJson> {
  await tx.query(
    'update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1',
    [userId],
  );
  await tx.query(
    `update auth.identities set last_sign_in_at = now() where user_id = $1 and provider = 'email'`,
    [userId],
  );
  const { rows } = await tx.query<{ id: string }>(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent)
     values (gen_random_uuid(), $1, now(), now(), 'aal1', $2) returning id::text`,
    [userId, meta.userAgent ?? null],
  );
  const sessionId = rows[0]?.id ?? '';
  await tx.query(
    `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
     values ($1, now(), now(), $2, gen_random_uuid())`,
    [sessionId, method],
  );
  const token = newRefreshToken();
  await tx.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3)`,
    [token, userId, sessionId],
  );
  const user = await findUserById(tx, userId);
  if (!user) throw authError(404, 'user_not_found', 'User not found');
  return buildSession(ctx, user, { sessionId, amr: await sessionAmr(tx, sessionId) }, token);
}

type TokenRow = {
  id: string;
  token: string;
  user_id: string;
  revoked: boolean;
  session_id: string | null;
  session_exists: boolean;
  session_expired: boolean;
  revoked_age: number;
};

export type RefreshOutcome =
  { ok: true; session: SessionJson } | { ok: false; error: ReturnType<typeof authError> };

/**
 * The refresh_token grant with rotation, as GoTrue's `RefreshTokenGrant` decides it
 * (docs/sessions.md §1):
 * - the live token is rotated: revoked, and a new child issued;
 * - the live token's parent, at any time, is answered with the live token: the client never
 *   stored the reply that rotated it (a lost reply), so nothing new is issued;
 * - any other revoked token, within `refresh_token_reuse_interval` of its revocation, gets a
 *   child of its own (clients racing on one token);
 * - later than that it is treated as theft: with rotation on, the whole family is revoked.
 * The revocation must commit, so failures are returned, not thrown.
 */
export async function refreshSession(
  ctx: PlatformContext,
  tx: Queryable,
  token: string,
): Promise<RefreshOutcome> {
  const fail = (error: ReturnType<typeof authError>): RefreshOutcome => ({ ok: false, error });
  const { rows } = await tx.query<TokenRow>(
    `select rt.id::text, rt.token, rt.user_id, coalesce(rt.revoked, false) as revoked, rt.session_id::text,
            s.id is not null as session_exists,
            coalesce(s.not_after < now(), false) as session_expired,
            extract(epoch from now() - rt.updated_at)::float8 as revoked_age
       from auth.refresh_tokens rt left join auth.sessions s on s.id = rt.session_id
      where rt.token = $1
      for update of rt`,
    [token],
  );
  const row = rows[0];
  if (!row)
    return fail(
      authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'),
    );
  if (!row.session_id || !row.session_exists) {
    return fail(
      authError(400, 'session_not_found', 'Invalid Refresh Token: No Valid Session Found'),
    );
  }
  const user = /^[0-9a-f-]{36}$/i.test(row.user_id)
    ? await findUserById(tx, row.user_id)
    : undefined;
  if (!user)
    return fail(
      authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'),
    );
  if (user.is_banned)
    return fail(authError(400, 'user_banned', 'Invalid Refresh Token: User Banned'));
  if (row.session_expired)
    return fail(authError(400, 'session_expired', 'Invalid Refresh Token: Session Expired'));

  let issued: string | null = null;
  if (row.revoked) {
    const live = await tx.query<{ token: string; parent: string | null }>(
      `select token, parent from auth.refresh_tokens
        where session_id = $1 and not coalesce(revoked, false) order by id desc limit 1`,
      [row.session_id],
    );
    const active = live.rows[0];
    if (active?.parent === row.token) {
      issued = active.token;
    } else if (row.revoked_age > ctx.config.refreshTokenReuseSeconds) {
      if (ctx.config.refreshTokenRotation) {
        await tx.query(
          `update auth.refresh_tokens set revoked = true, updated_at = now()
            where session_id = $1 and not coalesce(revoked, false)`,
          [row.session_id],
        );
      }
      return fail(
        authError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
      );
    }
  }
  if (issued === null) {
    issued = newRefreshToken();
    // A revoked token's window restarts with each child it gets, as GoTrue's swap touches it.
    await tx.query(
      'update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1',
      [row.id],
    );
    await tx.query(
      `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
       values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)`,
      [issued, row.user_id, row.token, row.session_id],
    );
  }
  await tx.query(
    "update auth.sessions set refreshed_at = now() at time zone 'UTC', updated_at = now() where id = $1",
    [row.session_id],
  );
  const amr = await sessionAmr(tx, row.session_id);
  return {
    ok: true,
    session: await buildSession(ctx, user, { sessionId: row.session_id, amr }, issued),
  };
}
