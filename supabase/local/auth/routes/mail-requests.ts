import type { Context } from 'hono';
import * as v from 'valibot';
import type { AuthDeps } from '../deps.ts';
import { prepareEmail, type MailedKind } from '../email-tokens.ts';
import { authError } from '../errors.ts';
import { validateEmail } from '../credentials.ts';
import {
  PkceFields,
  allowedRedirect,
  clientIp,
  optionalString,
  pkceParams,
  readBody,
  type Pkce,
} from '../http.ts';
import { findUserByEmail, type UserRow } from '../users.ts';

const RecoverBody = v.object({ email: optionalString, ...PkceFields });
const ResendBody = v.object({
  type: optionalString,
  email: optionalString,
  phone: optionalString,
  ...PkceFields,
});

async function sendEmail(
  c: Context,
  { ctx }: AuthDeps,
  user: UserRow,
  kind: MailedKind,
  pkce: Pkce,
): Promise<void> {
  const redirect = allowedRedirect(c.req.query('redirect_to'), ctx.config);
  const mail = await ctx.db.transaction((tx) => prepareEmail(ctx, tx, user, kind, redirect, pkce));
  await ctx.mailer.send(mail);
}

/**
 * POST /recover: always `{}` so addresses cannot be probed; a known one gets a reset link. The
 * one-a-minute limit holds for every address, known or not, so its 429 reveals nothing either.
 */
export async function recover(c: Context, deps: AuthDeps): Promise<Response> {
  deps.limiter.hit('email', clientIp(c));
  const body = await readBody(c, RecoverBody);
  const pkce = pkceParams(body);
  if (!body.email) throw authError(400, 'validation_failed', 'Password recovery requires an email');
  const email = validateEmail(body.email);
  deps.recoveryGate.hit(email);
  const user = await findUserByEmail(deps.ctx.db, email);
  if (user) await sendEmail(c, deps, user, 'recovery', pkce);
  return c.json({});
}

/** POST /resend (GoTrue `Resend`): e-mail types only; nothing to send is still `{}`. */
export async function resend(c: Context, deps: AuthDeps): Promise<Response> {
  deps.limiter.hit('email', clientIp(c));
  const body = await readBody(c, ResendBody);
  const pkce = pkceParams(body);
  const type = body.type ?? '';
  if (!['signup', 'email_change', 'sms', 'phone_change'].includes(type)) {
    throw authError(
      400,
      'validation_failed',
      'Missing one of these types: signup, email_change, sms, phone_change',
    );
  }
  if (type === 'sms' || type === 'phone_change' || body.phone) {
    throw authError(400, 'phone_provider_disabled', 'Phone logins are disabled');
  }
  if (!body.email)
    throw authError(400, 'validation_failed', 'Type provided requires an email address');
  const user = await findUserByEmail(deps.ctx.db, validateEmail(body.email));
  if (!user) return c.json({});
  if (type === 'signup' && !user.email_confirmed_at) await sendEmail(c, deps, user, 'signup', pkce);
  if (type === 'email_change' && user.new_email)
    await sendEmail(c, deps, user, 'email_change', pkce);
  return c.json({});
}
