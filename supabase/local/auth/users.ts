import { isPgError, type Queryable } from '../db/index.ts';
import { authError } from './errors.ts';

/** RFC 3339 in UTC with microseconds; `rfc3339` below trims it to Go's RFC3339Nano form. */
const ts = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * One user with everything the responses and the flows need. Timestamps are formatted in SQL so
 * neither driver's Date conversion is involved; ages are computed by Postgres' clock.
 */
const USER_SELECT = `
  select u.id::text, coalesce(u.aud, '') as aud, coalesce(u.role, '') as role,
         coalesce(u.email, '') as email, coalesce(u.phone, '') as phone,
         u.encrypted_password,
         ${ts('u.email_confirmed_at')} as email_confirmed_at,
         ${ts('u.invited_at')} as invited_at,
         ${ts('u.phone_confirmed_at')} as phone_confirmed_at,
         ${ts('u.confirmation_sent_at')} as confirmation_sent_at,
         ${ts('u.confirmed_at')} as confirmed_at,
         ${ts('u.recovery_sent_at')} as recovery_sent_at,
         coalesce(u.email_change, '') as new_email,
         ${ts('u.email_change_sent_at')} as email_change_sent_at,
         ${ts('u.last_sign_in_at')} as last_sign_in_at,
         coalesce(u.raw_app_meta_data, '{}'::jsonb) as app_metadata,
         coalesce(u.raw_user_meta_data, '{}'::jsonb) as user_metadata,
         coalesce((
           select jsonb_agg(jsonb_build_object(
             'identity_id', i.id, 'id', i.provider_id, 'user_id', i.user_id,
             'identity_data', i.identity_data, 'provider', i.provider,
             'last_sign_in_at', ${ts('i.last_sign_in_at')}, 'created_at', ${ts('i.created_at')},
             'updated_at', ${ts('i.updated_at')}, 'email', i.email) order by i.created_at, i.id)
           from auth.identities i where i.user_id = u.id), '[]'::jsonb) as identities,
         ${ts('coalesce(u.created_at, now())')} as created_at,
         ${ts('coalesce(u.updated_at, now())')} as updated_at,
         ${ts('u.banned_until')} as banned_until,
         ${ts('u.deleted_at')} as deleted_at,
         coalesce(u.is_anonymous, false) as is_anonymous,
         coalesce(u.banned_until > now(), false) as is_banned,
         coalesce(u.confirmation_token, '') as confirmation_token,
         coalesce(u.recovery_token, '') as recovery_token,
         coalesce(u.email_change_token_new, '') as email_change_token,
         extract(epoch from now() - u.confirmation_sent_at)::float8 as confirmation_age,
         extract(epoch from now() - u.recovery_sent_at)::float8 as recovery_age,
         extract(epoch from now() - u.email_change_sent_at)::float8 as email_change_age
    from auth.users u`;

type Ts = string | null;

export type IdentityRow = {
  identity_id: string;
  id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: Ts;
  created_at: Ts;
  updated_at: Ts;
  email: string | null;
};

export type UserRow = {
  id: string;
  aud: string;
  role: string;
  email: string;
  phone: string;
  encrypted_password: string | null;
  email_confirmed_at: Ts;
  invited_at: Ts;
  phone_confirmed_at: Ts;
  confirmation_sent_at: Ts;
  confirmed_at: Ts;
  recovery_sent_at: Ts;
  new_email: string;
  email_change_sent_at: Ts;
  last_sign_in_at: Ts;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  identities: IdentityRow[];
  created_at: string;
  updated_at: string;
  banned_until: Ts;
  deleted_at: Ts;
  is_anonymous: boolean;
  is_banned: boolean;
  confirmation_token: string;
  recovery_token: string;
  email_change_token: string;
  /** Seconds since the last mail of each kind, or null if none was sent. */
  confirmation_age: number | null;
  recovery_age: number | null;
  email_change_age: number | null;
};

export async function findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    `${USER_SELECT} where u.id = $1::uuid and u.deleted_at is null`,
    [id],
  );
  return rows[0];
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    `${USER_SELECT} where lower(u.email) = lower($1) and u.deleted_at is null and not u.is_sso_user`,
    [email],
  );
  return rows[0];
}

export async function findUserByToken(
  db: Queryable,
  column: 'confirmation_token' | 'recovery_token' | 'email_change_token_new',
  tokenHash: string,
): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    `${USER_SELECT} where u.${column} = $1 and u.${column} <> '' and u.deleted_at is null`,
    [tokenHash],
  );
  return rows[0];
}

export type UserPage = { users: UserRow[]; total: number };

export async function listUsers(db: Queryable, page: number, perPage: number): Promise<UserPage> {
  const { rows } = await db.query<UserRow>(
    `${USER_SELECT} where u.deleted_at is null order by u.created_at desc, u.id limit $1 offset $2`,
    [perPage, (page - 1) * perPage],
  );
  const count = await db.query<{ n: number }>(
    'select count(*)::int as n from auth.users where deleted_at is null',
  );
  return { users: rows, total: count.rows[0]?.n ?? 0 };
}

export type NewUser = {
  email: string;
  encryptedPassword: string | null;
  userMetadata: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  confirmed: boolean;
  role?: string;
  phone?: string | null;
  id: string;
};

/**
 * A plain INSERT into auth.users, as GoTrue does, so app triggers on it (profile creation from
 * `raw_user_meta_data`) run in the same transaction and can veto the sign-up.
 */
export async function insertUser(tx: Queryable, u: NewUser): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                             raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at,
                             phone, is_anonymous, confirmation_token, recovery_token, email_change_token_new,
                             email_change)
     values ('00000000-0000-0000-0000-000000000000', $1::uuid, 'authenticated',
             $2, $3, $4, case when $5 then now() end, $6::jsonb, $7::jsonb, false, now(), now(),
             $8, false, '', '', '', '')
     returning id::text`,
    [
      u.id,
      u.role ?? 'authenticated',
      u.email,
      u.encryptedPassword,
      u.confirmed,
      JSON.stringify(u.appMetadata ?? { provider: 'email', providers: ['email'] }),
      JSON.stringify(u.userMetadata),
      u.phone ?? null,
    ],
  );
  const id = rows[0]?.id ?? '';
  await tx.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
     values ($1::text, $1::text::uuid, $2::jsonb, 'email', now(), now())`,
    [id, JSON.stringify(identityClaims(u.userMetadata))],
  );
  return id;
}

const IDENTITY_CLAIMS = ['sub', 'email', 'email_verified', 'phone_verified'];

/** GoTrue's email identity holds its claims only, never the rest of the sign-up data. */
function identityClaims(metadata: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    IDENTITY_CLAIMS.filter((k) => k in metadata).map((k) => [k, metadata[k]]),
  );
}

/**
 * GoTrue copies the identity claims into the user metadata, and they win over same-named keys
 * of the sign-up data; the identity's `identity_data` holds the claims alone.
 */
export function signupMetadata(
  id: string,
  email: string,
  data: Record<string, unknown>,
  verified: boolean,
): Record<string, unknown> {
  return { ...data, sub: id, email, email_verified: verified, phone_verified: false };
}

/** Marks the e-mail verified in the user and its identity, as GoTrue's `Confirm` does. */
export async function confirmEmail(tx: Queryable, userId: string): Promise<void> {
  await tx.query(
    `update auth.users
        set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = '',
            raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb,
            updated_at = now()
      where id = $1`,
    [userId],
  );
  await tx.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
      where user_id = $1 and provider = 'email'`,
    [userId],
  );
  await tx.query(
    `delete from auth.one_time_tokens where user_id = $1 and token_type = 'confirmation_token'`,
    [userId],
  );
}

/**
 * A failed user INSERT. A taken address (the unique index, hit by a concurrent sign-up) is
 * GoTrue's `email_exists`; an app trigger vetoing the row is reported as GoTrue words it, but as
 * a 422 rather than its 500, because the cause is the submitted data, not the server.
 */
export function userSaveError(e: unknown): unknown {
  if (!isPgError(e)) return e;
  if (e.code === '23505' && (e.constraint ?? '').startsWith('users_email')) {
    return authError(
      422,
      'email_exists',
      'A user with this email address has already been registered',
    );
  }
  return authError(422, 'validation_failed', 'Database error saving new user');
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
