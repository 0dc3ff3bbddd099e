import type { Context } from 'hono';
import * as v from 'valibot';
import type { Queryable } from '../../db/index.ts';
import type { PlatformContext } from '../../context.ts';
import type { AuthDeps } from '../deps.ts';
import { tokenHash } from '../email-tokens.ts';
import { authError } from '../errors.ts';
import { allowedRedirect, clientIp, optionalString, readBody } from '../http.ts';
import { issueSession, type AmrMethod, type SessionJson } from '../sessions.ts';
import { applyEmail, confirmEmail, findUserByToken, type UserRow } from '../users.ts';

const EmailTypeSchema = v.picklist([
  'signup',
  'invite',
  'recovery',
  'magiclink',
  'email',
  'email_change',
]);
type EmailType = v.InferOutput<typeof EmailTypeSchema>;
const PHONE_TYPES = ['sms', 'phone_change'];

type TokenColumn = 'confirmation_token' | 'recovery_token' | 'email_change_token_new';

/** Which stored token each verification type may consume (GoTrue `verifyTokenHash`/`verifyUserAndToken`). */
const COLUMNS: Record<EmailType, TokenColumn[]> = {
  signup: ['confirmation_token'],
  invite: ['confirmation_token'],
  recovery: ['recovery_token'],
  magiclink: ['recovery_token'],
  email: ['confirmation_token', 'recovery_token'],
  email_change: ['email_change_token_new'],
};

const AGE: Record<TokenColumn, (u: UserRow) => number | null> = {
  confirmation_token: (u) => u.confirmation_age,
  recovery_token: (u) => u.recovery_age,
  email_change_token_new: (u) => u.email_change_age,
};

function amrFor(type: EmailType, column: TokenColumn): AmrMethod {
  if (type === 'email') return 'otp';
  if (type === 'signup') return 'email/signup';
  if (column === 'email_change_token_new') return 'email_change';
  return type;
}

type Consumed = { user: UserRow; method: AmrMethod; pkce: boolean; flowMethod: string };

/** Finds the user whose stored token matches, checks its age, and applies what it confirms. */
async function consumeToken(
  ctx: PlatformContext,
  tx: Queryable,
  type: EmailType,
  candidates: string[],
): Promise<Consumed | undefined> {
  for (const column of COLUMNS[type]) {
    for (const hash of candidates) {
      const user = await findUserByToken(tx, column, hash);
      if (!user) continue;
      const age = AGE[column](user);
      if (age === null || age > ctx.config.otpExpirySeconds) return undefined;
      if (column === 'confirmation_token') await confirmEmail(tx, user.id);
      if (column === 'recovery_token') {
        await tx.query(
          `update auth.users set recovery_token = '', updated_at = now() where id = $1`,
          [user.id],
        );
        await tx.query(
          `delete from auth.one_time_tokens where user_id = $1 and token_type = 'recovery_token'`,
          [user.id],
        );
        if (!user.email_confirmed_at) await confirmEmail(tx, user.id);
      }
      if (column === 'email_change_token_new') {
        await applyEmail(tx, user.id, user.new_email);
        await tx.query(
          `delete from auth.one_time_tokens where user_id = $1 and token_type = 'email_change_token_new'`,
          [user.id],
        );
      }
      const flowMethod = {
        confirmation_token: 'email/signup',
        recovery_token: 'recovery',
        email_change_token_new: 'email_change',
      }[column];
      return { user, method: amrFor(type, column), pkce: hash.startsWith('pkce_'), flowMethod };
    }
  }
  return undefined;
}

function parseType(type: string | null | undefined): EmailType {
  if (type && PHONE_TYPES.includes(type))
    throw authError(400, 'phone_provider_disabled', 'Phone logins are disabled');
  if (!v.is(EmailTypeSchema, type)) {
    throw authError(400, 'validation_failed', 'Verify requires a verification type');
  }
  return type;
}

type LinkOutcome = { session: SessionJson } | { code: string } | undefined;

async function followLink(
  ctx: PlatformContext,
  tx: Queryable,
  type: EmailType,
  token: string,
): Promise<LinkOutcome> {
  const consumed = await consumeToken(ctx, tx, type, [token]);
  if (!consumed) return undefined;
  if (!consumed.pkce)
    return { session: await issueSession(ctx, tx, consumed.user.id, consumed.method) };
  const { rows } = await tx.query<{ id: string; auth_code: string }>(
    `select id::text, auth_code from auth.flow_state
      where user_id = $1 and authentication_method = $2 order by created_at desc limit 1`,
    [consumed.user.id, consumed.flowMethod],
  );
  const flow = rows[0];
  if (!flow) return undefined;
  await tx.query(
    'update auth.flow_state set auth_code_issued_at = now(), updated_at = now() where id = $1',
    [flow.id],
  );
  return { code: flow.auth_code };
}

/** Go's `url.Values.Encode`: keys sorted, spaces as `+`. */
const encode = (params: Record<string, string>) =>
  new URLSearchParams(Object.entries(params).sort(([a], [b]) => a.localeCompare(b))).toString();

/**
 * GET /verify — the link in the e-mail, opened by a browser without an apikey. Answers 303 to
 * the allowed redirect: implicit tokens in the hash, a PKCE `?code=`, or the error in both.
 */
export async function verifyGet(c: Context, { ctx, limiter }: AuthDeps): Promise<Response> {
  const type = parseType(c.req.query('type'));
  const token = c.req.query('token');
  if (!token) throw authError(400, 'validation_failed', 'Verify requires a token or a token hash');
  limiter.hit('verify', clientIp(c));
  const target = new URL(allowedRedirect(c.req.query('redirect_to'), ctx.config));
  target.hash = '';
  const outcome = await ctx.db.transaction((tx) => followLink(ctx, tx, type, token));
  if (!outcome) {
    const error = encode({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
      sb: '',
    });
    if (token.startsWith('pkce_')) target.search = error;
    return c.redirect(`${target.toString()}#${error}`, 303);
  }
  if ('code' in outcome) {
    target.searchParams.set('code', outcome.code);
    return c.redirect(target.toString(), 303);
  }
  const s = outcome.session;
  const hash = encode({
    access_token: s.access_token,
    expires_at: String(s.expires_at),
    expires_in: String(s.expires_in),
    refresh_token: s.refresh_token,
    sb: '',
    token_type: s.token_type,
    type,
  });
  return c.redirect(`${target.toString()}#${hash}`, 303);
}

const VerifyBody = v.object({
  type: optionalString,
  token: optionalString,
  token_hash: optionalString,
  email: optionalString,
  phone: optionalString,
  redirect_to: optionalString,
});

/** POST /verify — `verifyOtp` with a token_hash, or with the e-mail and its 6-digit code. */
export async function verifyPost(c: Context, { ctx, limiter }: AuthDeps): Promise<Response> {
  limiter.hit('verify', clientIp(c));
  const body = await readBody(c, VerifyBody);
  const type = parseType(body.type);
  let candidates: string[];
  if (body.token_hash) {
    candidates = [body.token_hash];
  } else if (body.token && body.email) {
    const hash = tokenHash(body.email.trim().toLowerCase(), body.token.trim());
    candidates = [hash, `pkce_${hash}`];
  } else if (body.phone) {
    throw authError(400, 'phone_provider_disabled', 'Phone logins are disabled');
  } else {
    throw authError(400, 'validation_failed', 'Verify requires either a token or a token hash');
  }
  const session = await ctx.db.transaction(async (tx) => {
    const consumed = await consumeToken(ctx, tx, type, candidates);
    return consumed ? issueSession(ctx, tx, consumed.user.id, consumed.method) : undefined;
  });
  if (!session) throw authError(403, 'otp_expired', 'Token has expired or is invalid');
  return c.json(session);
}
