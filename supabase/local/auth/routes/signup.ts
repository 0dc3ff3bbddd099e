import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import * as v from 'valibot';
import type { OutgoingMail } from '../../mailbox/mailer.ts';
import { checkPasswordStrength, hashPassword, validateEmail } from '../credentials.ts';
import type { AuthDeps } from '../deps.ts';
import { prepareEmail } from '../email-tokens.ts';
import { authError } from '../errors.ts';
import {
  PkceFields,
  allowedRedirect,
  clientIp,
  metadata,
  optionalString,
  pkceParams,
  readBody,
} from '../http.ts';
import { issueSession } from '../sessions.ts';
import { userJson } from '../user-json.ts';
import {
  findUserByEmail,
  findUserById,
  insertUser,
  signupMetadata,
  userSaveError,
} from '../users.ts';

const SignupBody = v.object({
  email: optionalString,
  phone: optionalString,
  password: optionalString,
  data: metadata,
  channel: optionalString,
  ...PkceFields,
});

/**
 * GoTrue's obfuscated answer when a confirmed address signs up again with confirmation on: it
 * looks like a fresh sign-up (so addresses cannot be enumerated) but has no identities.
 */
function fakeUser(email: string, data: Record<string, unknown>) {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

/** POST /signup (docs/platform-wire.md §2.2, existing-user cases §2.6). */
export async function signup(c: Context, { ctx, limiter }: AuthDeps): Promise<Response> {
  limiter.hit('signIn', clientIp(c));
  const body = await readBody(c, SignupBody);
  const pkce = pkceParams(body);
  if (!body.email && !body.phone && !body.password) {
    throw authError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
  }
  if (body.phone && !body.email)
    throw authError(400, 'phone_provider_disabled', 'Phone signups are disabled');
  if (!body.password) throw authError(400, 'validation_failed', 'Signup requires a valid password');
  const email = validateEmail(body.email ?? '');
  checkPasswordStrength(body.password);
  const data = body.data ?? {};
  const redirect = allowedRedirect(c.req.query('redirect_to'), ctx.config);
  const autoconfirm = ctx.config.autoconfirm;

  const existing = await findUserByEmail(ctx.db, email);
  if (existing) {
    if (autoconfirm) throw authError(422, 'user_already_exists', 'User already registered');
    if (existing.email_confirmed_at) return c.json(fakeUser(email, data));
    const mail = await ctx.db.transaction((tx) =>
      prepareEmail(ctx, tx, existing, 'signup', redirect, pkce),
    );
    await ctx.mailer.send(mail);
    const user = await findUserById(ctx.db, existing.id);
    return c.json(user ? userJson(user) : fakeUser(email, data));
  }

  const encryptedPassword = await hashPassword(body.password, ctx.config.bcryptCost);
  const id = randomUUID();
  let mail: OutgoingMail | undefined;
  const result = await ctx.db
    .transaction(async (tx) => {
      await insertUser(tx, {
        id,
        email,
        encryptedPassword,
        userMetadata: signupMetadata(id, email, data, autoconfirm),
        confirmed: autoconfirm,
      });
      if (autoconfirm)
        return issueSession(ctx, tx, id, 'password', { userAgent: c.req.header('user-agent') });
      const created = await findUserById(tx, id);
      if (!created) throw authError(422, 'validation_failed', 'Database error saving new user');
      mail = await prepareEmail(ctx, tx, created, 'signup', redirect, pkce);
      return findUserById(tx, id);
    })
    .catch((e: unknown) => {
      ctx.log.info({ msg: 'sign-up rejected', error: String(e) });
      throw userSaveError(e);
    });
  if (mail) await ctx.mailer.send(mail);
  if (!result) throw authError(422, 'validation_failed', 'Database error saving new user');
  return c.json('access_token' in result ? result : userJson(result));
}
