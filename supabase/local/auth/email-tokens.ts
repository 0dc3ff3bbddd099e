import { createHash, randomInt } from 'node:crypto';
import type { Queryable } from '../db/index.ts';
import type { PlatformContext } from '../context.ts';
import type { OutgoingMail } from '../mailbox/mailer.ts';
import type { TemplateName } from '../project-config.ts';
import { htmlToText, renderTemplate } from './email-template.ts';
import { authError } from './errors.ts';
import type { Pkce } from './http.ts';
import type { UserRow } from './users.ts';

/** Kinds of e-mail token; `magiclink` and `invite` are only minted by the admin generate_link. */
export type EmailKind = 'signup' | 'recovery' | 'email_change' | 'magiclink' | 'invite';
/** Kinds the server e-mails itself. */
export type MailedKind = 'signup' | 'recovery' | 'email_change';

const confirmation = {
  column: 'confirmation_token',
  sentAt: 'confirmation_sent_at',
  oneTime: 'confirmation_token',
  age: (u: UserRow) => u.confirmation_age,
} as const;
const recovery = {
  column: 'recovery_token',
  sentAt: 'recovery_sent_at',
  oneTime: 'recovery_token',
  age: (u: UserRow) => u.recovery_age,
} as const;

/** Where each kind keeps its token, and the flow it starts (amr method of the later session). */
const EMAIL_KINDS = {
  signup: { ...confirmation, method: 'email/signup' },
  invite: { ...confirmation, method: 'invite' },
  recovery: { ...recovery, method: 'recovery' },
  magiclink: { ...recovery, method: 'magiclink' },
  email_change: {
    column: 'email_change_token_new',
    sentAt: 'email_change_sent_at',
    oneTime: 'email_change_token_new',
    method: 'email_change',
    age: (u: UserRow) => u.email_change_age,
  },
} as const;

/** GoTrue's `GenerateTokenHash`: the link carries sha224(email + otp), never the OTP itself. */
export function tokenHash(email: string, otp: string): string {
  return createHash('sha224')
    .update(email + otp)
    .digest('hex');
}

function newOtp(): string {
  return String(randomInt(1_000_000)).padStart(6, '0');
}

/**
 * Throws GoTrue's 429 when the previous mail of this kind went out less than
 * `[auth.email] max_frequency` ago.
 */
function checkMailFrequency(ctx: PlatformContext, user: UserRow, kind: MailedKind): void {
  if (!ctx.config.rateLimit) return;
  const age = EMAIL_KINDS[kind].age(user);
  const frequency = ctx.config.maxFrequencySeconds;
  if (age !== null && age < frequency) {
    const wait = Math.max(1, Math.ceil(frequency - age));
    throw authError(
      429,
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${wait} seconds.`,
    );
  }
}

export type EmailToken = { to: string; otp: string; hash: string; link: string };

/**
 * Stores a fresh token of `kind` for the user in the caller's transaction. With PKCE the token
 * is prefixed `pkce_` and a flow state remembers the challenge, so the link redirects with
 * `?code=` instead of tokens.
 */
export async function storeEmailToken(
  ctx: PlatformContext,
  tx: Queryable,
  user: UserRow,
  kind: EmailKind,
  redirectTo: string,
  pkce: Pkce,
): Promise<EmailToken> {
  const k = EMAIL_KINDS[kind];
  const to = kind === 'email_change' ? user.new_email : user.email;
  const otp = newOtp();
  const hash = (pkce ? 'pkce_' : '') + tokenHash(to, otp);
  await tx.query(
    `update auth.users set ${k.column} = $2, ${k.sentAt} = now(), updated_at = now() where id = $1`,
    [user.id, hash],
  );
  await tx.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to)
     values (gen_random_uuid(), $1, $2, $3, $4)
     on conflict (user_id, token_type)
     do update set token_hash = excluded.token_hash, relates_to = excluded.relates_to, updated_at = now()`,
    [user.id, k.oneTime, hash, to],
  );
  if (pkce) {
    await tx.query(
      `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
                                    created_at, updated_at, authentication_method)
       values (gen_random_uuid(), $1, gen_random_uuid()::text, $2, $3, 'email', now(), now(), $4)`,
      [user.id, pkce.method, pkce.challenge, k.method],
    );
  }
  const link =
    `${ctx.config.apiExternalUrl}/auth/v1/verify?token=${encodeURIComponent(hash)}` +
    `&type=${kind}&redirect_to=${encodeURIComponent(redirectTo)}`;
  return { to, otp, hash, link };
}

/**
 * Stores a token (subject to the one-mail-a-minute limit) and returns the e-mail to send once
 * the caller's transaction has committed.
 */
export async function prepareEmail(
  ctx: PlatformContext,
  tx: Queryable,
  user: UserRow,
  kind: MailedKind,
  redirectTo: string,
  pkce: Pkce,
): Promise<OutgoingMail> {
  checkMailFrequency(ctx, user, kind);
  const token = await storeEmailToken(ctx, tx, user, kind, redirectTo, pkce);
  return composeMail(ctx, kind, user, redirectTo, token);
}

/** The config.toml template of each mail (`[auth.email.template.<name>]`). */
const TEMPLATE_OF: Record<MailedKind, TemplateName> = {
  signup: 'confirmation',
  recovery: 'recovery',
  email_change: 'email_change',
};

/** The mail as hosted Auth renders it from the same template file and subject. */
function composeMail(
  ctx: PlatformContext,
  kind: MailedKind,
  user: UserRow,
  redirectTo: string,
  { to, link, otp, hash }: EmailToken,
): OutgoingMail {
  const template = ctx.config.emailTemplates[TEMPLATE_OF[kind]];
  const html = renderTemplate(template.source, {
    ConfirmationURL: link,
    Token: otp,
    TokenHash: hash,
    SiteURL: ctx.config.siteUrl,
    RedirectTo: redirectTo,
    Email: user.email,
    NewEmail: user.new_email ?? '',
  });
  return { to, subject: template.subject, text: htmlToText(html), html };
}
