import type { IdentityRow, UserRow } from './users.ts';

/** Go's RFC3339Nano drops trailing zeros of the fraction (and the dot when nothing is left). */
export function rfc3339(ts: string): string {
  return ts.replace(/\.?0+Z$/, 'Z');
}

const opt = (key: string, value: string | null) => (value ? { [key]: rfc3339(value) } : {});

function identityJson(i: IdentityRow) {
  return {
    identity_id: i.identity_id,
    id: i.id,
    user_id: i.user_id,
    identity_data: i.identity_data,
    provider: i.provider,
    ...opt('last_sign_in_at', i.last_sign_in_at),
    ...opt('created_at', i.created_at),
    ...opt('updated_at', i.updated_at),
    ...(i.email ? { email: i.email } : {}),
  };
}

/**
 * GoTrue's `models.User` JSON: field order as its struct, `omitempty` timestamps dropped when
 * null, secrets (password hash, tokens) never included.
 */
export function userJson(u: UserRow) {
  return {
    id: u.id,
    aud: u.aud,
    role: u.role,
    email: u.email,
    ...opt('email_confirmed_at', u.email_confirmed_at),
    ...opt('invited_at', u.invited_at),
    phone: u.phone,
    ...opt('phone_confirmed_at', u.phone_confirmed_at),
    ...opt('confirmation_sent_at', u.confirmation_sent_at),
    ...opt('confirmed_at', u.confirmed_at),
    ...opt('recovery_sent_at', u.recovery_sent_at),
    ...(u.new_email ? { new_email: u.new_email } : {}),
    ...opt('email_change_sent_at', u.email_change_sent_at),
    ...opt('last_sign_in_at', u.last_sign_in_at),
    app_metadata: u.app_metadata,
    user_metadata: u.user_metadata,
    identities: u.identities.map(identityJson),
    created_at: rfc3339(u.created_at),
    updated_at: rfc3339(u.updated_at),
    ...opt('banned_until', u.banned_until),
    ...opt('deleted_at', u.deleted_at),
    is_anonymous: u.is_anonymous,
  };
}

export type UserJson = ReturnType<typeof userJson>;
