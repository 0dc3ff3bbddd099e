import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import * as v from 'valibot';
import { isPgError, type Queryable } from '../../db/index.ts';
import { checkPasswordStrength, hashPassword, validateEmail } from '../credentials.ts';
import type { AuthDeps } from '../deps.ts';
import { authError } from '../errors.ts';
import { allowedRedirect, metadata, optionalString, readBody } from '../http.ts';
import { storeEmailToken } from '../email-tokens.ts';
import { UUID, requireAdmin } from '../guard.ts';
import { userJson } from '../user-json.ts';
import {
  findUserByEmail,
  findUserById,
  insertUser,
  listUsers,
  signupMetadata,
  userSaveError,
  applyEmail,
  mergeMetadata,
  signOutOthers,
} from '../users.ts';

const AdminUserBody = v.object({
  id: optionalString,
  email: optionalString,
  phone: optionalString,
  password: optionalString,
  email_confirm: v.nullish(v.boolean()),
  user_metadata: metadata,
  app_metadata: metadata,
  role: optionalString,
  ban_duration: optionalString,
});

const DeleteBody = v.object({ should_soft_delete: v.nullish(v.boolean()) });

const PageQuery = v.object({
  page: v.optional(v.pipe(v.string(), v.regex(/^\d{0,6}$/, 'must be a number'))),
  per_page: v.optional(v.pipe(v.string(), v.regex(/^\d{0,6}$/, 'must be a number'))),
});

/** Go's `time.ParseDuration` for the units a ban uses ("24h", "1h30m", "90s"); "none" lifts it. */
function banUntilSeconds(duration: string): number | null {
  if (duration === 'none') return null;
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== duration) {
    throw authError(
      400,
      'validation_failed',
      `invalid format for ban duration: time: invalid duration "${duration}"`,
    );
  }
  const unit = { h: 3600, m: 60, s: 1 } as const;
  return parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2] as keyof typeof unit], 0);
}

async function setBan(tx: Queryable, userId: string, duration: string): Promise<void> {
  const seconds = banUntilSeconds(duration);
  await tx.query(
    'update auth.users set banned_until = case when $2::float8 is null then null else now() + make_interval(secs => $2::float8) end where id = $1',
    [userId, seconds],
  );
  if (seconds !== null) await tx.query('delete from auth.sessions where user_id = $1', [userId]);
}

function userId(c: Context): string {
  const id = c.req.param('id') ?? '';
  if (!UUID.test(id)) throw authError(404, 'user_not_found', 'User not found');
  return id;
}

/** POST /admin/users — `auth.admin.createUser`. */
export async function adminCreateUser(c: Context, { ctx }: AuthDeps): Promise<Response> {
  await requireAdmin(c, ctx);
  const body = await readBody(c, AdminUserBody);
  if (body.phone) throw authError(400, 'phone_provider_disabled', 'Phone logins are disabled');
  if (!body.email)
    throw authError(400, 'validation_failed', 'Unable to validate email address: invalid format');
  const email = validateEmail(body.email);
  if (body.password) checkPasswordStrength(body.password);
  if (body.id && !UUID.test(body.id))
    throw authError(400, 'validation_failed', 'ID must conform to the uuid v4 format');
  if (body.ban_duration) banUntilSeconds(body.ban_duration);
  if (await findUserByEmail(ctx.db, email)) {
    throw authError(
      422,
      'email_exists',
      'A user with this email address has already been registered',
    );
  }
  const encryptedPassword = body.password
    ? await hashPassword(body.password, ctx.config.bcryptCost)
    : null;
  const id = body.id ?? randomUUID();
  const confirmed = body.email_confirm === true;
  const created = await ctx.db
    .transaction(async (tx) => {
      await insertUser(tx, {
        id,
        email,
        encryptedPassword,
        confirmed,
        role: body.role ?? undefined,
        userMetadata: signupMetadata(id, email, body.user_metadata ?? {}, confirmed),
        appMetadata: { provider: 'email', providers: ['email'], ...(body.app_metadata ?? {}) },
      });
      if (body.ban_duration) await setBan(tx, id, body.ban_duration);
      return findUserById(tx, id);
    })
    .catch((e: unknown) => {
      ctx.log.info({ msg: 'admin create user rejected', error: String(e) });
      throw userSaveError(e);
    });
  if (!created) throw authError(422, 'validation_failed', 'Database error saving new user');
  return c.json(userJson(created));
}

/** GET /admin/users?page=&per_page= — with GoTrue's X-Total-Count and Link headers. */
export async function adminListUsers(c: Context, { ctx }: AuthDeps): Promise<Response> {
  await requireAdmin(c, ctx);
  const q = v.safeParse(PageQuery, c.req.query());
  if (!q.success) throw authError(400, 'validation_failed', 'Bad Pagination Parameters');
  const page = Math.max(1, Number(q.output.page || 1));
  const perPage = Math.min(1000, Math.max(1, Number(q.output.per_page || 50)));
  const { users, total } = await listUsers(ctx.db, page, perPage);
  const last = Math.max(1, Math.ceil(total / perPage));
  const links = [];
  if (page < last) links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
  links.push(`</admin/users?page=${last}&per_page=${perPage}>; rel="last"`);
  return c.json({ users: users.map(userJson), aud: 'authenticated' }, 200, {
    'X-Total-Count': String(total),
    Link: links.join(', '),
  });
}

/** GET /admin/users/:id */
export async function adminGetUser(c: Context, { ctx }: AuthDeps): Promise<Response> {
  await requireAdmin(c, ctx);
  const user = await findUserById(ctx.db, userId(c));
  if (!user) throw authError(404, 'user_not_found', 'User not found');
  return c.json(userJson(user));
}

/** PUT /admin/users/:id — `auth.admin.updateUserById`. */
export async function adminUpdateUser(c: Context, { ctx }: AuthDeps): Promise<Response> {
  await requireAdmin(c, ctx);
  const id = userId(c);
  const body = await readBody(c, AdminUserBody);
  const user = await findUserById(ctx.db, id);
  if (!user) throw authError(404, 'user_not_found', 'User not found');
  if (body.phone) throw authError(400, 'phone_provider_disabled', 'Phone logins are disabled');
  const email = body.email ? validateEmail(body.email) : undefined;
  if (email && email !== user.email) {
    const owner = await findUserByEmail(ctx.db, email);
    if (owner)
      throw authError(
        422,
        'email_exists',
        'A user with this email address has already been registered',
      );
  }
  if (body.password) checkPasswordStrength(body.password);
  if (body.ban_duration) banUntilSeconds(body.ban_duration);
  const encryptedPassword = body.password
    ? await hashPassword(body.password, ctx.config.bcryptCost)
    : undefined;
  const updated = await ctx.db
    .transaction(async (tx) => {
      if (email && email !== user.email) await applyEmail(tx, id, email);
      if (encryptedPassword) {
        await tx.query(
          'update auth.users set encrypted_password = $2, updated_at = now() where id = $1',
          [id, encryptedPassword],
        );
        await signOutOthers(tx, id, undefined);
      }
      if (body.email_confirm === true) {
        await tx.query(
          `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now() where id = $1`,
          [id],
        );
      }
      if (body.user_metadata) await mergeMetadata(tx, id, 'raw_user_meta_data', body.user_metadata);
      if (body.app_metadata) await mergeMetadata(tx, id, 'raw_app_meta_data', body.app_metadata);
      if (body.role)
        await tx.query('update auth.users set role = $2, updated_at = now() where id = $1', [
          id,
          body.role,
        ]);
      if (body.ban_duration) await setBan(tx, id, body.ban_duration);
      return findUserById(tx, id);
    })
    .catch((e: unknown) => {
      throw userSaveError(e);
    });
  if (!updated) throw authError(404, 'user_not_found', 'User not found');
  return c.json(userJson(updated));
}

/** DELETE /admin/users/:id — hard delete cascades to identities and sessions; soft delete anonymises. */
export async function adminDeleteUser(c: Context, { ctx }: AuthDeps): Promise<Response> {
  await requireAdmin(c, ctx);
  const id = userId(c);
  const body = await readBody(c, DeleteBody, { allowEmpty: true });
  const user = await findUserById(ctx.db, id);
  if (!user) throw authError(404, 'user_not_found', 'User not found');
  const deletion = ctx.db.transaction(async (tx) => {
    if (!body.should_soft_delete) {
      await tx.query('delete from auth.users where id = $1', [id]);
      return;
    }
    await tx.query('delete from auth.sessions where user_id = $1', [id]);
    await tx.query('delete from auth.identities where user_id = $1', [id]);
    await tx.query(
      `update auth.users set email = null, phone = null, encrypted_password = '', confirmation_token = '',
              recovery_token = '', email_change_token_new = '', email_change = '',
              raw_app_meta_data = '{}'::jsonb, raw_user_meta_data = '{}'::jsonb,
              deleted_at = now(), updated_at = now()
        where id = $1`,
      [id],
    );
  });
  // App tables may still reference the user (foreign keys without cascade): GoTrue's
  // "Database error deleting user", answered as the conflict it is rather than a 500.
  await deletion.catch((e: unknown) => {
    if (!isPgError(e)) throw e;
    ctx.log.info({ msg: 'admin delete user rejected', error: String(e) });
    throw authError(409, 'conflict', 'Database error deleting user');
  });
  return c.json({});
}

const GenerateLinkBody = v.object({
  type: optionalString,
  email: optionalString,
  password: optionalString,
  data: metadata,
  redirect_to: optionalString,
  redirectTo: optionalString,
});

const LINK_TYPES = ['signup', 'invite', 'magiclink', 'recovery'] as const;
type LinkType = (typeof LINK_TYPES)[number];
const isLinkType = (t: string | null | undefined): t is LinkType =>
  (LINK_TYPES as readonly (string | null | undefined)[]).includes(t);

/**
 * POST /admin/generate_link — mints the link an e-mail would carry, without sending it (for
 * server-side flows and tests). Sign-up and invite create the user when the address is new.
 */
export async function adminGenerateLink(c: Context, { ctx }: AuthDeps): Promise<Response> {
  await requireAdmin(c, ctx);
  const body = await readBody(c, GenerateLinkBody);
  const type = body.type;
  if (!isLinkType(type)) {
    throw authError(
      400,
      'validation_failed',
      `Invalid email action link type requested: ${type ?? ''}`,
    );
  }
  const email = validateEmail(body.email ?? '');
  const redirect = allowedRedirect(
    c.req.query('redirect_to') ?? body.redirect_to ?? body.redirectTo ?? undefined,
    ctx.config,
  );
  const existing = await findUserByEmail(ctx.db, email);
  const creates = type === 'signup' || type === 'invite';
  if (creates && existing?.email_confirmed_at) {
    throw authError(
      422,
      'email_exists',
      'A user with this email address has already been registered',
    );
  }
  if (!creates && !existing)
    throw authError(404, 'user_not_found', 'User with this email not found');
  let encryptedPassword: string | null = null;
  if (type === 'signup' && !existing) {
    if (!body.password)
      throw authError(400, 'validation_failed', 'Signup requires a valid password');
    checkPasswordStrength(body.password);
    encryptedPassword = await hashPassword(body.password, ctx.config.bcryptCost);
  }
  const id = existing?.id ?? randomUUID();
  const result = await ctx.db
    .transaction(async (tx) => {
      if (!existing) {
        await insertUser(tx, {
          id,
          email,
          encryptedPassword,
          confirmed: false,
          userMetadata: signupMetadata(id, email, body.data ?? {}, false),
        });
        if (type === 'invite')
          await tx.query('update auth.users set invited_at = now() where id = $1', [id]);
      }
      const user = await findUserById(tx, id);
      if (!user) return undefined;
      const token = await storeEmailToken(ctx, tx, user, type, redirect, undefined);
      const updated = await findUserById(tx, id);
      return updated && { user: updated, token };
    })
    .catch((e: unknown) => {
      throw userSaveError(e);
    });
  if (!result) throw authError(422, 'validation_failed', 'Database error saving new user');
  return c.json({
    ...userJson(result.user),
    action_link: result.token.link,
    email_otp: result.token.otp,
    hashed_token: result.token.hash,
    redirect_to: redirect,
    verification_type: type,
  });
}
