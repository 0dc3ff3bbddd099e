import type { Context } from 'hono';
import * as v from 'valibot';
import type { Queryable } from '../../db/index.ts';
import type { OutgoingMail } from '../../mailbox/mailer.ts';
import {
  checkPasswordStrength,
  hashPassword,
  passwordMatches,
  validateEmail,
} from '../credentials.ts';
import type { AuthDeps } from '../deps.ts';
import { prepareEmail } from '../email-tokens.ts';
import { authError } from '../errors.ts';
import {
  PkceFields,
  allowedRedirect,
  metadata,
  optionalString,
  pkceParams,
  readBody,
} from '../http.ts';
import { requireUser } from '../guard.ts';
import { userJson } from '../user-json.ts';
import { findUserByEmail, findUserById, userSaveError } from '../users.ts';

const UpdateBody = v.object({
  email: optionalString,
  password: optionalString,
  data: metadata,
  phone: optionalString,
  nonce: optionalString,
  app_metadata: metadata,
  ...PkceFields,
});

/** GET /user */
export async function getUser(c: Context, { ctx }: AuthDeps): Promise<Response> {
  const { user } = await requireUser(c, ctx);
  return c.json(userJson(user));
}

/**
 * Merges metadata like GoTrue's `UpdateUserMetaData`: given keys overwrite, keys set to null are
 * removed, keys not given stay.
 */
export async function mergeMetadata(
  tx: Queryable,
  userId: string,
  column: 'raw_user_meta_data' | 'raw_app_meta_data',
  patch: Record<string, unknown>,
): Promise<void> {
  const set = Object.fromEntries(Object.entries(patch).filter(([, val]) => val !== null));
  const removed = Object.keys(patch).filter((k) => patch[k] === null);
  await tx.query(
    `update auth.users set ${column} = (coalesce(${column}, '{}'::jsonb) || $2::jsonb) - $3::text[], updated_at = now()
      where id = $1`,
    [userId, JSON.stringify(set), removed],
  );
}

/** Revokes every session of the user but `keep` (GoTrue logs others out on a password change). */
export async function signOutOthers(
  tx: Queryable,
  userId: string,
  keep: string | undefined,
): Promise<void> {
  await tx.query(
    'delete from auth.sessions where user_id = $1 and ($2::uuid is null or id <> $2::uuid)',
    [userId, keep ?? null],
  );
}

/** Applies a confirmed e-mail change to the user and its e-mail identity. */
export async function applyEmail(tx: Queryable, userId: string, email: string): Promise<void> {
  await tx.query(
    `update auth.users set email = $2::text, email_change = '', email_change_token_new = '', email_change_sent_at = null,
            raw_user_meta_data = case when raw_user_meta_data ? 'email'
                                      then raw_user_meta_data || jsonb_build_object('email', $2::text)
                                      else raw_user_meta_data end,
            updated_at = now()
      where id = $1`,
    [userId, email],
  );
  await tx.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now()
      where user_id = $1 and provider = 'email'`,
    [userId, email],
  );
}

/** PUT /user: password (with same_password), metadata merge, e-mail change. */
export async function updateUser(c: Context, { ctx }: AuthDeps): Promise<Response> {
  const caller = await requireUser(c, ctx);
  const body = await readBody(c, UpdateBody);
  const pkce = pkceParams(body);
  if (body.app_metadata)
    throw authError(403, 'not_admin', 'Updating app_metadata requires admin privileges');
  if (body.phone) throw authError(400, 'phone_provider_disabled', 'Phone logins are disabled');
  const { user, sessionId } = caller;

  let encryptedPassword: string | undefined;
  if (body.password) {
    checkPasswordStrength(body.password);
    if (await passwordMatches(body.password, user.encrypted_password)) {
      throw authError(
        422,
        'same_password',
        'New password should be different from the old password.',
      );
    }
    encryptedPassword = await hashPassword(body.password, ctx.config.bcryptCost);
  }

  let newEmail: string | undefined;
  if (body.email) {
    const email = validateEmail(body.email);
    if (email !== user.email) {
      const owner = await findUserByEmail(ctx.db, email);
      if (owner && owner.id !== user.id) {
        throw authError(
          422,
          'email_exists',
          'A user with this email address has already been registered',
        );
      }
      newEmail = email;
    }
  }

  const redirect = allowedRedirect(c.req.query('redirect_to'), ctx.config.siteUrl);
  let mail: OutgoingMail | undefined;
  const updated = await ctx.db
    .transaction(async (tx) => {
      if (encryptedPassword) {
        await tx.query(
          'update auth.users set encrypted_password = $2, updated_at = now() where id = $1',
          [user.id, encryptedPassword],
        );
        await signOutOthers(tx, user.id, sessionId);
      }
      if (body.data) await mergeMetadata(tx, user.id, 'raw_user_meta_data', body.data);
      if (newEmail && ctx.config.autoconfirm) await applyEmail(tx, user.id, newEmail);
      if (newEmail && !ctx.config.autoconfirm) {
        await tx.query('update auth.users set email_change = $2 where id = $1', [
          user.id,
          newEmail,
        ]);
        const pending = await findUserById(tx, user.id);
        if (pending) mail = await prepareEmail(ctx, tx, pending, 'email_change', redirect, pkce);
      }
      return findUserById(tx, user.id);
    })
    .catch((e: unknown) => {
      throw userSaveError(e);
    });
  if (mail) await ctx.mailer.send(mail);
  if (!updated) throw authError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  return c.json(userJson(updated));
}
