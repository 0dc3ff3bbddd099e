import type { Context } from 'hono';
import * as v from 'valibot';
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
import {
  applyEmail,
  findUserByEmail,
  findUserById,
  mergeMetadata,
  signOutOthers,
  userSaveError,
} from '../users.ts';

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

  const redirect = allowedRedirect(c.req.query('redirect_to'), ctx.config);
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
