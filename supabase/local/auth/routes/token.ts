import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import * as v from 'valibot';
import { passwordMatches } from '../credentials.ts';
import type { AuthDeps } from '../deps.ts';
import { authError } from '../errors.ts';
import { clientIp, optionalString, readBody } from '../http.ts';
import { issueSession, refreshSession, type AmrMethod } from '../sessions.ts';
import { findUserByEmail } from '../users.ts';

const PasswordBody = v.object({
  email: optionalString,
  phone: optionalString,
  password: optionalString,
});
const RefreshBody = v.object({ refresh_token: optionalString });
const PkceBody = v.object({ auth_code: optionalString, code_verifier: optionalString });

/** GoTrue's `FlowStateExpiryDuration`: the code from a link must be exchanged within 5 minutes. */
const FLOW_STATE_EXPIRY_SECONDS = 300;

/** POST /token?grant_type=password|refresh_token|pkce */
export async function token(c: Context, deps: AuthDeps): Promise<Response> {
  switch (c.req.query('grant_type')) {
    case 'password':
      return passwordGrant(c, deps);
    case 'refresh_token':
      return refreshGrant(c, deps);
    case 'pkce':
      return pkceGrant(c, deps);
    default:
      throw authError(400, 'validation_failed', 'unsupported_grant_type');
  }
}

async function passwordGrant(c: Context, { ctx, limiter }: AuthDeps): Promise<Response> {
  limiter.hit('signIn', clientIp(c));
  const body = await readBody(c, PasswordBody);
  if (body.email && body.phone) {
    throw authError(
      400,
      'validation_failed',
      'Only an email address or phone number should be provided on login.',
    );
  }
  if (body.phone) throw authError(400, 'phone_provider_disabled', 'Phone logins are disabled');
  if (!body.email) throw authError(400, 'validation_failed', 'missing email or phone');
  const invalid = authError(400, 'invalid_credentials', 'Invalid login credentials');
  const user = await findUserByEmail(ctx.db, body.email.trim());
  if (!user || !(await passwordMatches(body.password ?? '', user.encrypted_password)))
    throw invalid;
  if (user.is_banned) throw authError(400, 'user_banned', 'User is banned');
  if (!user.email_confirmed_at) throw authError(400, 'email_not_confirmed', 'Email not confirmed');
  const session = await ctx.db.transaction((tx) =>
    issueSession(ctx, tx, user.id, 'password', { userAgent: c.req.header('user-agent') }),
  );
  return c.json(session);
}

async function refreshGrant(c: Context, { ctx, limiter }: AuthDeps): Promise<Response> {
  limiter.hit('refresh', clientIp(c));
  const body = await readBody(c, RefreshBody);
  if (!body.refresh_token) throw authError(400, 'validation_failed', 'refresh_token required');
  const refreshToken = body.refresh_token;
  const outcome = await ctx.db.transaction((tx) => refreshSession(ctx, tx, refreshToken));
  if (!outcome.ok) throw outcome.error;
  return c.json(outcome.session);
}

type FlowRow = {
  id: string;
  user_id: string | null;
  code_challenge: string;
  code_challenge_method: 's256' | 'plain';
  authentication_method: string;
  issued: boolean;
  expired: boolean;
};

const base64url = (b: Buffer) =>
  b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

async function pkceGrant(c: Context, { ctx, limiter }: AuthDeps): Promise<Response> {
  limiter.hit('signIn', clientIp(c));
  const body = await readBody(c, PkceBody);
  if (!body.auth_code || !body.code_verifier) {
    throw authError(
      400,
      'validation_failed',
      'invalid request: both auth code and code verifier should be non-empty',
    );
  }
  const { auth_code: authCode, code_verifier: verifier } = body;
  const outcome = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<FlowRow>(
      `select id::text, user_id::text, code_challenge, code_challenge_method::text, authentication_method,
              auth_code_issued_at is not null as issued,
              coalesce(auth_code_issued_at, created_at) + make_interval(secs => $2) < now() as expired
         from auth.flow_state where auth_code = $1 for update`,
      [authCode, FLOW_STATE_EXPIRY_SECONDS],
    );
    const flow = rows[0];
    if (!flow || !flow.issued || !flow.user_id) {
      return authError(
        404,
        'flow_state_not_found',
        'invalid flow state, no valid flow state found',
      );
    }
    if (flow.expired) {
      await tx.query('delete from auth.flow_state where id = $1', [flow.id]);
      return authError(422, 'flow_state_expired', 'invalid flow state, flow state has expired');
    }
    const expected =
      flow.code_challenge_method === 's256'
        ? base64url(createHash('sha256').update(verifier).digest())
        : verifier;
    if (expected !== flow.code_challenge) {
      return authError(
        400,
        'bad_code_verifier',
        'code challenge does not match previously saved code verifier',
      );
    }
    await tx.query('delete from auth.flow_state where id = $1', [flow.id]);
    return issueSession(ctx, tx, flow.user_id, flow.authentication_method as AmrMethod, {
      userAgent: c.req.header('user-agent'),
    });
  });
  if (outcome instanceof Error) throw outcome;
  return c.json(outcome);
}
