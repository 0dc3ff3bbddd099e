import { createClient, type AuthChangeEvent, type SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';

/**
 * GoTrue conformance of supabase/local, driven through the unmodified supabase-js client
 * (docs/platform-wire.md §2), with raw fetch only where the client cannot express a request.
 */

type Mail = {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  created_at: string;
};

const PASSWORD = 'senha-forte-123';
const APP = 'http://localhost:5173';
let seq = 0;
const newEmail = (tag: string) => `${tag}-${++seq}-${process.pid}@example.com`;

let t: TestPlatform;

beforeAll(async () => {
  t = await startTestPlatform({
    migrationsDir: 'tests/platform/sample-migrations',
    config: { bcryptCost: 4 },
  });
});
afterAll(() => t.stop());

async function mailsTo(to: string, platform = t): Promise<Mail[]> {
  const res = await fetch(`${platform.url}/mailbox/api?to=${encodeURIComponent(to)}`, {
    headers: { apikey: platform.serviceRoleKey },
  });
  return (await res.json()) as Mail[];
}

async function lastMail(to: string, platform = t): Promise<Mail> {
  const [mail] = await mailsTo(to, platform);
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
}

const verifyLink = (mail: Mail) => {
  const link = mail.links.find((l) => l.includes('/auth/v1/verify?'));
  if (!link) throw new Error('mail has no verify link');
  return link;
};
const otpOf = (mail: Mail) => /código: (\d{6})/.exec(mail.text)?.[1] ?? '';

/** Opens an e-mail link like a browser that does not follow the redirect. */
async function follow(link: string): Promise<URL> {
  const res = await fetch(link, { redirect: 'manual' });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location') ?? '');
}
const hashOf = (url: URL) => Object.fromEntries(new URLSearchParams(url.hash.slice(1)));

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

function pkceClient() {
  return createClient(t.url, t.anonKey, {
    auth: {
      flowType: 'pkce',
      storage: memoryStorage(),
      autoRefreshToken: false,
      persistSession: true,
      detectSessionInUrl: false,
    },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
}

function events(client: SupabaseClient): AuthChangeEvent[] {
  const seen: AuthChangeEvent[] = [];
  client.auth.onAuthStateChange((event) => void seen.push(event));
  return seen;
}

async function confirmedUser(data: Record<string, unknown> = {}) {
  const email = newEmail('confirmed');
  const { data: created, error } = await t.admin.auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
    user_metadata: data,
  });
  expect(error).toBeNull();
  return { email, id: created.user?.id ?? '' };
}

async function signedIn(email: string, password = PASSWORD): Promise<SupabaseClient> {
  const client = t.client();
  const { error } = await client.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  return client;
}

async function rawRefresh(refreshToken: string) {
  const res = await fetch(`${t.url}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: {
      apikey: t.anonKey,
      'Content-Type': 'application/json',
      'X-Supabase-Api-Version': '2024-01-01',
    },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('sign-up with e-mail confirmation (the default)', () => {
  it('returns the user without a session and mails a Portuguese confirmation link and code', async () => {
    const email = newEmail('signup');
    const { data, error } = await t.client().auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { nome: 'Maria' }, emailRedirectTo: `${APP}/confirmado` },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    const user = data.user;
    expect(user?.email).toBe(email);
    expect(user?.user_metadata).toMatchObject({ nome: 'Maria', email_verified: false });
    expect(user?.identities).toHaveLength(1);
    expect(user?.identities?.[0]).toMatchObject({ provider: 'email', user_id: user?.id });
    // omitempty: never-set timestamps are absent, not null
    expect(user).not.toHaveProperty('email_confirmed_at');
    expect(user).not.toHaveProperty('last_sign_in_at');
    expect(user?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);

    const mail = await lastMail(email);
    expect(mail.subject).toBe('Confirme seu e-mail');
    const link = new URL(verifyLink(mail));
    expect(link.origin + link.pathname).toBe(`${t.url}/auth/v1/verify`);
    expect(link.searchParams.get('type')).toBe('signup');
    expect(link.searchParams.get('redirect_to')).toBe(`${APP}/confirmado`);
    expect(otpOf(mail)).toMatch(/^\d{6}$/);
  });

  it('refuses password sign-in until the e-mail is confirmed', async () => {
    const email = newEmail('unconfirmed');
    await t.client().auth.signUp({ email, password: PASSWORD });
    const { data, error } = await t.client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(data.session).toBeNull();
    expect(error).toMatchObject({
      status: 400,
      code: 'email_not_confirmed',
      message: 'Email not confirmed',
    });
  });

  it('confirms through the mailbox link: 303 with the session in the hash, usable by setSession', async () => {
    const email = newEmail('confirm');
    await t
      .client()
      .auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: `${APP}/bem-vindo` } });
    const location = await follow(verifyLink(await lastMail(email)));
    expect(location.origin + location.pathname).toBe(`${APP}/bem-vindo`);
    const hash = hashOf(location);
    expect(hash).toMatchObject({
      token_type: 'bearer',
      type: 'signup',
      expires_in: '3600',
      sb: '',
    });

    const client = t.client();
    const { data, error } = await client.auth.setSession({
      access_token: hash.access_token ?? '',
      refresh_token: hash.refresh_token ?? '',
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(data.user?.user_metadata.email_verified).toBe(true);
    expect(data.session?.expires_at).toBe(Number(hash.expires_at));

    const again = await t.client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(again.error).toBeNull();
    expect(again.data.user?.last_sign_in_at).toBeTruthy();
  });

  it('confirms with the 6-digit code through verifyOtp', async () => {
    const email = newEmail('otp');
    await t.client().auth.signUp({ email, password: PASSWORD });
    const client = t.client();
    const seen = events(client);
    const { data, error } = await client.auth.verifyOtp({
      email,
      token: otpOf(await lastMail(email)),
      type: 'signup',
    });
    expect(error).toBeNull();
    expect(data.session?.user.email_confirmed_at).toBeTruthy();
    expect(seen).toContain('SIGNED_IN');
  });

  it('redirects a used or unknown link to the app with otp_expired, and an unknown site to SITE_URL', async () => {
    const email = newEmail('reuse');
    await t
      .client()
      .auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: `${APP}/x` } });
    const link = verifyLink(await lastMail(email));
    await follow(link);
    const second = await follow(link);
    expect(hashOf(second)).toEqual({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
      sb: '',
    });

    const foreign = new URL(link);
    foreign.searchParams.set('redirect_to', 'https://evil.example/steal');
    const fallback = await follow(foreign.toString());
    expect(fallback.origin).toBe(new URL(t.platform.ctx.config.siteUrl).origin);
  });
});

describe('sign-up of an address that already exists (§2.6)', () => {
  it('answers a confirmed address with an obfuscated user: no identities, no session, no mail', async () => {
    const { email, id } = await confirmedUser();
    const { data, error } = await t.client().auth.signUp({
      email,
      password: 'outra-senha-456',
      options: { data: { nome: 'Intruso' } },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.identities).toEqual([]);
    expect(data.user?.id).not.toBe(id);
    expect(data.user?.role).toBe('');
    expect(data.user?.user_metadata).toEqual({ nome: 'Intruso' });
    expect(data.user).not.toHaveProperty('email_confirmed_at');
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it('answers an unconfirmed address with the real user and sends the confirmation again', async () => {
    const email = newEmail('twice');
    const first = await t
      .client()
      .auth.signUp({ email, password: PASSWORD, options: { data: { nome: 'A' } } });
    const second = await t
      .client()
      .auth.signUp({ email, password: 'diferente-789', options: { data: { nome: 'B' } } });
    expect(second.error).toBeNull();
    expect(second.data.user?.id).toBe(first.data.user?.id);
    expect(second.data.user?.user_metadata.nome).toBe('A');
    expect(second.data.session).toBeNull();
    expect(await mailsTo(email)).toHaveLength(2);
  });
});

describe('autoconfirm', () => {
  let auto: TestPlatform;
  beforeAll(async () => {
    auto = await startTestPlatform({
      migrationsDir: 'tests/platform/sample-migrations',
      config: { bcryptCost: 4, autoconfirm: true },
    });
  });
  afterAll(() => auto.stop());

  it('signs the new user in at once, and refuses an existing address with user_already_exists', async () => {
    const email = newEmail('auto');
    const client = auto.client();
    const seen = events(client);
    const { data, error } = await client.auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { nome: 'Ana' } },
    });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(seen).toContain('SIGNED_IN');
    expect((await client.auth.getUser()).data.user?.id).toBe(data.user?.id);
    expect(await mailsTo(email, auto)).toHaveLength(0);

    const again = await auto.client().auth.signUp({ email, password: PASSWORD });
    expect(again.error).toMatchObject({
      status: 422,
      code: 'user_already_exists',
      message: 'User already registered',
    });
  });
});

describe('password sign-in and the session', () => {
  it('rejects a wrong password and an unknown address alike', async () => {
    const { email } = await confirmedUser();
    for (const attempt of [
      { email, password: 'errada-000' },
      { email: newEmail('nobody'), password: PASSWORD },
    ]) {
      const { data, error } = await t.client().auth.signInWithPassword(attempt);
      expect(data.session).toBeNull();
      expect(error).toMatchObject({
        status: 400,
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      });
    }
  });

  it('issues a session whose JWT carries GoTrue claims', async () => {
    const { email, id } = await confirmedUser({ nome: 'Bia' });
    const { data } = await t.client().auth.signInWithPassword({ email, password: PASSWORD });
    const session = data.session;
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    const claims = decodeJwt(session?.access_token ?? '');
    expect(claims).toMatchObject({
      iss: `${t.url}/auth/v1`,
      sub: id,
      aud: 'authenticated',
      role: 'authenticated',
      email,
      aal: 'aal1',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { nome: 'Bia' },
      is_anonymous: false,
    });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
    expect(claims.exp).toBe(session?.expires_at);
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) as number }]);
    expect(claims.session_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('getUser answers the signed-in user', async () => {
    const { email, id } = await confirmedUser();
    const client = await signedIn(email);
    const { data, error } = await client.auth.getUser();
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ id, email, aud: 'authenticated', role: 'authenticated' });
  });
});

describe('updateUser', () => {
  it('merges metadata: given keys overwrite, null removes, others stay', async () => {
    const { email } = await confirmedUser({ a: 1, b: 2 });
    const client = await signedIn(email);
    const { data, error } = await client.auth.updateUser({ data: { b: null, c: 3 } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toMatchObject({ a: 1, c: 3 });
    expect(data.user?.user_metadata).not.toHaveProperty('b');
  });

  it('changes the password, refusing the same one and a weak one', async () => {
    const { email } = await confirmedUser();
    const client = await signedIn(email);
    const same = await client.auth.updateUser({ password: PASSWORD });
    expect(same.error).toMatchObject({
      status: 422,
      code: 'same_password',
      message: 'New password should be different from the old password.',
    });
    const weak = await client.auth.updateUser({ password: '123' });
    expect(weak.error).toMatchObject({
      status: 422,
      code: 'weak_password',
      name: 'AuthWeakPasswordError',
    });
    expect((weak.error as { reasons?: string[] }).reasons).toEqual(['length']);

    const changed = await client.auth.updateUser({ password: 'nova-senha-456' });
    expect(changed.error).toBeNull();
    expect(
      (await t.client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code,
    ).toBe('invalid_credentials');
    expect(
      (await t.client().auth.signInWithPassword({ email, password: 'nova-senha-456' })).error,
    ).toBeNull();
  });

  it('signs other sessions out when the password changes', async () => {
    const { email } = await confirmedUser();
    const a = await signedIn(email);
    const b = await signedIn(email);
    const bRefresh = (await b.auth.getSession()).data.session?.refresh_token ?? '';
    await a.auth.updateUser({ password: 'trocada-789' });
    expect((await rawRefresh(bRefresh)).body.code).toBe('refresh_token_not_found');
    expect((await a.auth.getUser()).error).toBeNull();
  });

  it('refuses app_metadata from the user', async () => {
    const { email } = await confirmedUser();
    const client = await signedIn(email);
    const token = (await client.auth.getSession()).data.session?.access_token ?? '';
    const res = await fetch(`${t.url}/auth/v1/user`, {
      method: 'PUT',
      headers: {
        apikey: t.anonKey,
        Authorization: `Bearer ${token}`,
        'X-Supabase-Api-Version': '2024-01-01',
      },
      body: JSON.stringify({ app_metadata: { role: 'admin' } }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'not_admin' });
  });

  it('changes the e-mail after the new address confirms it', async () => {
    const { email } = await confirmedUser();
    const client = await signedIn(email);
    const next = newEmail('novo');
    const { data, error } = await client.auth.updateUser(
      { email: next },
      { emailRedirectTo: `${APP}/perfil` },
    );
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.new_email).toBe(next);
    const mail = await lastMail(next);
    expect(mail.subject).toBe('Confirme a alteração de e-mail');
    const location = await follow(verifyLink(mail));
    expect(hashOf(location).type).toBe('email_change');
    const { data: after } = await client.auth.getUser();
    expect(after.user?.email).toBe(next);
    expect(after.user).not.toHaveProperty('new_email');
  });
});

describe('refresh tokens', () => {
  it('rotates: each refresh answers a new refresh token for the same session', async () => {
    const { email } = await confirmedUser();
    const client = await signedIn(email);
    const before = (await client.auth.getSession()).data.session;
    const { data, error } = await client.auth.refreshSession();
    expect(error).toBeNull();
    expect(data.session?.refresh_token).not.toBe(before?.refresh_token);
    expect(decodeJwt(data.session?.access_token ?? '').session_id).toBe(
      decodeJwt(before?.access_token ?? '').session_id,
    );
  });

  it('lets the immediate parent be reused in the window (racing tabs converge on the live token)', async () => {
    const { email } = await confirmedUser();
    const client = await signedIn(email);
    const parent = (await client.auth.getSession()).data.session?.refresh_token ?? '';
    const first = await rawRefresh(parent);
    const retry = await rawRefresh(parent);
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body.refresh_token).toBe(first.body.refresh_token);
  });

  it('answers two tabs refreshing the same token at once with the same new token', async () => {
    const { email } = await confirmedUser();
    const client = await signedIn(email);
    const parent = (await client.auth.getSession()).data.session?.refresh_token ?? '';
    const [a, b] = await Promise.all([rawRefresh(parent), rawRefresh(parent)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refresh_token).toBe(b.body.refresh_token);
  });

  /** Ages a token's revocation instead of waiting: windows count from the row's updated_at. */
  async function ageRevocation(token: string, interval: string): Promise<void> {
    await t.platform.ctx.db.query(
      `update auth.refresh_tokens set updated_at = updated_at - $2::interval where token = $1`,
      [token, interval],
    );
  }

  it('answers the live token’s parent with the live token at any time: a rotation whose reply was lost', async () => {
    const { email } = await confirmedUser();
    const client = await signedIn(email);
    const parent = (await client.auth.getSession()).data.session?.refresh_token ?? '';
    const live = (await rawRefresh(parent)).body.refresh_token as string;
    await ageRevocation(parent, '1 day');
    const retry = await rawRefresh(parent);
    expect(retry.status).toBe(200);
    expect(retry.body.refresh_token).toBe(live);
    // Nothing new was issued, and the live token still rotates as usual.
    const next = await rawRefresh(live);
    expect(next.status).toBe(200);
    expect(next.body.refresh_token).not.toBe(live);
  });

  it('gives an older token a child of its own within the window (clients racing on one token)', async () => {
    const { email } = await confirmedUser();
    const client = await signedIn(email);
    const first = (await client.auth.getSession()).data.session?.refresh_token ?? '';
    const second = (await rawRefresh(first)).body.refresh_token as string;
    const third = (await rawRefresh(second)).body.refresh_token as string;
    const fork = await rawRefresh(first);
    expect(fork.status).toBe(200);
    expect([second, third]).not.toContain(fork.body.refresh_token);
  });

  it('treats an older token outside the window as theft: already_used, and the whole family is revoked', async () => {
    const { email } = await confirmedUser();
    const client = await signedIn(email);
    const first = (await client.auth.getSession()).data.session?.refresh_token ?? '';
    const second = (await rawRefresh(first)).body.refresh_token as string;
    const live = (await rawRefresh(second)).body.refresh_token as string;
    await ageRevocation(first, '11 seconds');
    const reuse = await rawRefresh(first);
    expect(reuse).toEqual({
      status: 400,
      body: { code: 'refresh_token_already_used', message: 'Invalid Refresh Token: Already Used' },
    });
    // The revocation touched every token, so each has the window again (as in GoTrue); past
    // it, neither the live token nor its parent is answered any more.
    await ageRevocation(live, '11 seconds');
    await ageRevocation(second, '11 seconds');
    expect((await rawRefresh(live)).body.code).toBe('refresh_token_already_used');
    expect((await rawRefresh(second)).body.code).toBe('refresh_token_already_used');
  });

  it('rejects an unknown refresh token with refresh_token_not_found', async () => {
    const { email } = await confirmedUser();
    const client = await signedIn(email);
    const { data, error } = await client.auth.refreshSession({ refresh_token: 'nao-existe' });
    expect(data.session).toBeNull();
    expect(error).toMatchObject({
      status: 400,
      code: 'refresh_token_not_found',
      message: 'Invalid Refresh Token: Refresh Token Not Found',
    });
  });
});

describe('signOut scopes', () => {
  async function twoSessions() {
    const { email } = await confirmedUser();
    const a = await signedIn(email);
    const b = await signedIn(email);
    const tokens = async (c: SupabaseClient) => (await c.auth.getSession()).data.session;
    return { a, b, aSession: await tokens(a), bSession: await tokens(b) };
  }

  it('others: revokes every other session and keeps this one', async () => {
    const { a, aSession, bSession } = await twoSessions();
    expect((await a.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await rawRefresh(bSession?.refresh_token ?? '')).body.code).toBe(
      'refresh_token_not_found',
    );
    expect((await rawRefresh(aSession?.refresh_token ?? '')).status).toBe(200);
  });

  it('local: revokes only this session; its access token stops working on /user', async () => {
    const { a, aSession, bSession } = await twoSessions();
    expect((await a.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect((await a.auth.getSession()).data.session).toBeNull();
    expect((await rawRefresh(aSession?.refresh_token ?? '')).body.code).toBe(
      'refresh_token_not_found',
    );
    expect((await rawRefresh(bSession?.refresh_token ?? '')).status).toBe(200);
    const res = await fetch(`${t.url}/auth/v1/user`, {
      headers: {
        apikey: t.anonKey,
        Authorization: `Bearer ${aSession?.access_token}`,
        'X-Supabase-Api-Version': '2024-01-01',
      },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      code: 'session_not_found',
      message: 'Session from session_id claim in JWT does not exist',
    });
  });

  it('global (the default): revokes every session of the user', async () => {
    const { a, aSession, bSession } = await twoSessions();
    const seen = events(a);
    expect((await a.auth.signOut()).error).toBeNull();
    expect(seen).toContain('SIGNED_OUT');
    for (const s of [aSession, bSession]) {
      expect((await rawRefresh(s?.refresh_token ?? '')).body.code).toBe('refresh_token_not_found');
    }
  });
});

describe('password recovery', () => {
  it('mails a reset link; opening it signs in with type=recovery in the hash', async () => {
    const { email } = await confirmedUser();
    const { data, error } = await t
      .client()
      .auth.resetPasswordForEmail(email, { redirectTo: `${APP}/nova-senha` });
    expect(error).toBeNull();
    expect(data).toEqual({});
    const mail = await lastMail(email);
    expect(mail.subject).toBe('Redefinir senha');
    const location = await follow(verifyLink(mail));
    expect(location.origin + location.pathname).toBe(`${APP}/nova-senha`);
    const hash = hashOf(location);
    expect(hash.type).toBe('recovery');
    const client = t.client();
    await client.auth.setSession({
      access_token: hash.access_token ?? '',
      refresh_token: hash.refresh_token ?? '',
    });
    expect((await client.auth.updateUser({ password: 'recuperada-321' })).error).toBeNull();
    expect(
      (await t.client().auth.signInWithPassword({ email, password: 'recuperada-321' })).error,
    ).toBeNull();
  });

  it('verifyOtp with the recovery code fires PASSWORD_RECOVERY', async () => {
    const { email } = await confirmedUser();
    await t.client().auth.resetPasswordForEmail(email);
    const client = t.client();
    const seen = events(client);
    const { data, error } = await client.auth.verifyOtp({
      email,
      token: otpOf(await lastMail(email)),
      type: 'recovery',
    });
    expect(error).toBeNull();
    expect(data.session).toBeTruthy();
    expect(seen).toContain('PASSWORD_RECOVERY');
    expect(decodeJwt(data.session?.access_token ?? '').amr).toEqual([
      { method: 'recovery', timestamp: expect.any(Number) as number },
    ]);
  });

  it('answers {} for an unknown address and sends nothing', async () => {
    const email = newEmail('ghost');
    const { data, error } = await t.client().auth.resetPasswordForEmail(email);
    expect(error).toBeNull();
    expect(data).toEqual({});
    expect(await mailsTo(email)).toHaveLength(0);
  });
});

describe('resend', () => {
  it('sends a new confirmation and invalidates the previous link', async () => {
    const email = newEmail('resend');
    await t.client().auth.signUp({ email, password: PASSWORD });
    const oldLink = verifyLink(await lastMail(email));
    const { error } = await t.client().auth.resend({ type: 'signup', email });
    expect(error).toBeNull();
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(2);
    expect(hashOf(await follow(oldLink)).error_code).toBe('otp_expired');
    expect(hashOf(await follow(verifyLink(mails[0] as Mail))).type).toBe('signup');
  });
});

describe('rate limits', () => {
  let limited: TestPlatform;
  beforeAll(async () => {
    limited = await startTestPlatform({
      migrationsDir: 'tests/platform/sample-migrations',
      config: { bcryptCost: 4, rateLimit: true },
    });
  });
  afterAll(() => limited.stop());

  it('allows one confirmation e-mail per address per minute (429 over_email_send_rate_limit)', async () => {
    const email = newEmail('limited');
    await limited.client().auth.signUp({ email, password: PASSWORD });
    const { error } = await limited.client().auth.resend({ type: 'signup', email });
    expect(error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(error?.message).toMatch(
      /^For security purposes, you can only request this after \d+ seconds\.$/,
    );
    expect(await mailsTo(email, limited)).toHaveLength(1);
  });

  it('limits sign-in attempts per client address (429 over_request_rate_limit)', async () => {
    const statuses: number[] = [];
    let limitError: unknown;
    for (let i = 0; i < 35; i++) {
      const { error } = await limited
        .client()
        .auth.signInWithPassword({ email: 'x@example.com', password: 'errada' });
      statuses.push(error?.status ?? 200);
      if (error?.status === 429) limitError = error;
    }
    expect(statuses.slice(0, 25).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(limitError).toMatchObject({
      code: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    });
  });
});

describe('PKCE flow', () => {
  it('confirms a sign-up with ?code= and exchangeCodeForSession', async () => {
    const email = newEmail('pkce');
    const client = pkceClient();
    await client.auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: `${APP}/callback` },
    });
    const link = new URL(verifyLink(await lastMail(email)));
    expect(link.searchParams.get('token')).toMatch(/^pkce_/);
    const location = await follow(link.toString());
    expect(location.hash).toBe('');
    const code = location.searchParams.get('code') ?? '';
    expect(code).toMatch(/^[0-9a-f-]{36}$/);

    const { data, error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect((await client.auth.getUser()).data.user?.email).toBe(email);

    const replay = await pkceClient().auth.exchangeCodeForSession(code);
    expect(replay.error).toBeTruthy();
  });

  it('rejects an unknown code and a wrong verifier', async () => {
    const email = newEmail('pkce-bad');
    const client = pkceClient();
    await client.auth.signUp({ email, password: PASSWORD });
    const code = (await follow(verifyLink(await lastMail(email)))).searchParams.get('code');
    const exchange = async (authCode: string | null, verifier: string) => {
      const res = await fetch(`${t.url}/auth/v1/token?grant_type=pkce`, {
        method: 'POST',
        headers: {
          apikey: t.anonKey,
          'Content-Type': 'application/json',
          'X-Supabase-Api-Version': '2024-01-01',
        },
        body: JSON.stringify({ auth_code: authCode, code_verifier: verifier }),
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    expect(await exchange('00000000-0000-4000-8000-000000000000', 'a'.repeat(112))).toEqual({
      status: 404,
      body: {
        code: 'flow_state_not_found',
        message: 'invalid flow state, no valid flow state found',
      },
    });
    expect(await exchange(code, 'b'.repeat(112))).toEqual({
      status: 400,
      body: {
        code: 'bad_code_verifier',
        message: 'code challenge does not match previously saved code verifier',
      },
    });
  });

  it('recovers a password with a code and fires PASSWORD_RECOVERY', async () => {
    const { email } = await confirmedUser();
    const client = pkceClient();
    const seen = events(client);
    await client.auth.resetPasswordForEmail(email, { redirectTo: `${APP}/nova-senha` });
    const code = (await follow(verifyLink(await lastMail(email)))).searchParams.get('code') ?? '';
    const { error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(seen).toContain('PASSWORD_RECOVERY');
  });
});

describe('admin API', () => {
  it('creates, lists, reads, updates and deletes users with the service role', async () => {
    const admin = t.admin.auth.admin;
    const email = newEmail('admin');
    const created = await admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { nome: 'Dra. Ana' },
      app_metadata: { papel: 'medico' },
    });
    expect(created.error).toBeNull();
    const id = created.data.user?.id ?? '';
    expect(created.data.user).toMatchObject({
      email,
      user_metadata: { nome: 'Dra. Ana' },
      app_metadata: { provider: 'email', providers: ['email'], papel: 'medico' },
    });
    expect(created.data.user?.email_confirmed_at).toBeTruthy();

    const dup = await admin.createUser({ email, password: PASSWORD });
    expect(dup.error).toMatchObject({ status: 422, code: 'email_exists' });

    const list = await admin.listUsers({ page: 1, perPage: 1 });
    expect(list.error).toBeNull();
    expect(list.data.users).toHaveLength(1);
    expect((list.data as unknown as { total: number }).total).toBeGreaterThan(1);

    expect((await admin.getUserById(id)).data.user?.email).toBe(email);

    const updated = await admin.updateUserById(id, {
      user_metadata: { crm: '123' },
      app_metadata: { papel: null },
    });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toMatchObject({ nome: 'Dra. Ana', crm: '123' });
    expect(updated.data.user?.app_metadata).not.toHaveProperty('papel');

    await admin.updateUserById(id, { ban_duration: '24h' });
    expect(
      (await t.client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code,
    ).toBe('user_banned');

    const deleted = await admin.deleteUser(id);
    expect(deleted.error).toBeNull();
    expect((await admin.getUserById(id)).error).toMatchObject({
      status: 404,
      code: 'user_not_found',
    });
  });

  it('generates sign-up and recovery links without sending mail', async () => {
    const email = newEmail('link');
    const { data, error } = await t.admin.auth.admin.generateLink({
      type: 'signup',
      email,
      password: PASSWORD,
      options: { data: { nome: 'Link' }, redirectTo: `${APP}/entrar` },
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.user_metadata.nome).toBe('Link');
    expect(data.properties).toMatchObject({
      verification_type: 'signup',
      redirect_to: `${APP}/entrar`,
    });
    expect(data.properties?.email_otp).toMatch(/^\d{6}$/);
    expect(await mailsTo(email)).toHaveLength(0);
    const location = await follow(data.properties?.action_link ?? '');
    expect(hashOf(location).type).toBe('signup');

    const recovery = await t.admin.auth.admin.generateLink({ type: 'recovery', email });
    const client = t.client();
    const seen = events(client);
    const verified = await client.auth.verifyOtp({
      token_hash: recovery.data.properties?.hashed_token ?? '',
      type: 'recovery',
    });
    expect(verified.error).toBeNull();
    expect(seen).toContain('PASSWORD_RECOVERY');

    const unknown = await t.admin.auth.admin.generateLink({
      type: 'recovery',
      email: newEmail('nobody'),
    });
    expect(unknown.error).toMatchObject({ status: 404, code: 'user_not_found' });
  });

  it('refuses the anon key and a user token with 403 not_admin', async () => {
    const anon = await t.client().auth.admin.listUsers();
    expect(anon.error).toMatchObject({
      status: 403,
      code: 'not_admin',
      message: 'User not allowed',
    });

    const { email } = await confirmedUser();
    const user = await signedIn(email);
    const token = (await user.auth.getSession()).data.session?.access_token ?? '';
    const res = await fetch(`${t.url}/auth/v1/admin/users`, {
      headers: {
        apikey: t.anonKey,
        Authorization: `Bearer ${token}`,
        'X-Supabase-Api-Version': '2024-01-01',
      },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: 'not_admin', message: 'User not allowed' });
  });
});

describe('error bodies and headers (§2.5)', () => {
  const signIn = (headers: Record<string, string>) =>
    fetch(`${t.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: t.anonKey, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ email: 'ninguem@example.com', password: 'x' }),
    });

  it('answers {code, message} and echoes X-Supabase-Api-Version when the request names it', async () => {
    const res = await signIn({ 'X-Supabase-Api-Version': '2024-01-01' });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(res.headers.get('x-sb-error-code')).toBe('invalid_credentials');
    expect(res.headers.get('access-control-expose-headers') ?? '').toMatch(
      /X-Supabase-Api-Version/i,
    );
    expect(await res.json()).toEqual({
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
  });

  it('answers the legacy {code, error_code, msg} without the header', async () => {
    const res = await signIn({});
    expect(res.headers.get('x-supabase-api-version')).toBeNull();
    expect(await res.json()).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });
  });

  it('adds weak_password.reasons to a weak password error', async () => {
    const res = await fetch(`${t.url}/auth/v1/signup`, {
      method: 'POST',
      headers: {
        apikey: t.anonKey,
        'Content-Type': 'application/json',
        'X-Supabase-Api-Version': '2024-01-01',
      },
      body: JSON.stringify({ email: newEmail('weak'), password: '123' }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      code: 'weak_password',
      message: 'Password should be at least 6 characters.',
      weak_password: { reasons: ['length'] },
    });
  });

  it('serves /settings, /health and an empty JWKS (HS256 tokens)', async () => {
    const headers = { apikey: t.anonKey };
    const settings = (await (
      await fetch(`${t.url}/auth/v1/settings`, { headers })
    ).json()) as unknown;
    expect(settings).toMatchObject({
      external: { email: true },
      disable_signup: false,
      mailer_autoconfirm: false,
    });
    const health = (await (await fetch(`${t.url}/auth/v1/health`, { headers })).json()) as unknown;
    expect(health).toMatchObject({ name: 'GoTrue' });
    const jwks = await fetch(`${t.url}/auth/v1/.well-known/jwks.json`);
    expect(await jwks.json()).toEqual({ keys: [] });
  });
});

describe('auth.users for app triggers', () => {
  beforeAll(async () => {
    // What an app migration does on hosted Supabase: derive a profile from the sign-up metadata.
    await t.platform.ctx.db.exec(`
      create table public.perfis_teste (id uuid primary key, nome text not null);
      create function public.criar_perfil_teste() returns trigger language plpgsql security definer as $$
      begin
        if new.raw_user_meta_data ->> 'nome' = 'recusar' then raise exception 'nome inválido'; end if;
        insert into public.perfis_teste (id, nome) values (new.id, coalesce(new.raw_user_meta_data ->> 'nome', ''));
        return new;
      end $$;
      create trigger criar_perfil_teste after insert on auth.users
        for each row execute function public.criar_perfil_teste();
    `);
  });

  it('lets an insert trigger read raw_user_meta_data of a sign-up', async () => {
    const { data } = await t.client().auth.signUp({
      email: newEmail('perfil'),
      password: PASSWORD,
      options: { data: { nome: 'Carla' } },
    });
    const { rows } = await t.platform.ctx.db.query<{ nome: string }>(
      'select nome from public.perfis_teste where id = $1',
      [data.user?.id],
    );
    expect(rows).toEqual([{ nome: 'Carla' }]);
  });

  it('turns a trigger veto into a 4xx and leaves no user behind', async () => {
    const email = newEmail('veto');
    const { data, error } = await t
      .client()
      .auth.signUp({ email, password: PASSWORD, options: { data: { nome: 'recusar' } } });
    expect(data.user).toBeNull();
    expect(error).toMatchObject({ status: 422, message: 'Database error saving new user' });
    const { rows } = await t.platform.ctx.db.query('select 1 from auth.users where email = $1', [
      email,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('refuses to delete a user that app rows still reference (409 conflict), keeping the user', async () => {
    const { id } = await confirmedUser();
    await t.platform.ctx.db.exec(
      'create table if not exists public.referencias_teste (user_id uuid references auth.users (id))',
    );
    await t.platform.ctx.db.query('insert into public.referencias_teste values ($1)', [id]);
    const { error } = await t.admin.auth.admin.deleteUser(id);
    expect(error).toMatchObject({
      status: 409,
      code: 'conflict',
      message: 'Database error deleting user',
    });
    expect((await t.admin.auth.admin.getUserById(id)).data.user?.id).toBe(id);
  });

  it('exposes auth.uid(), auth.role(), auth.email() and auth.jwt() from the request claims', async () => {
    const claims = JSON.stringify({
      sub: '11111111-1111-4111-8111-111111111111',
      role: 'authenticated',
      email: 'x@y.z',
    });
    const { rows } = await t.platform.ctx.db.transaction(async (tx) => {
      await tx.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
      await tx.query(`set local role authenticated`);
      return tx.query<Record<string, unknown>>(
        `select auth.uid()::text as uid, auth.role() as role, auth.email() as email, auth.jwt() ->> 'sub' as sub`,
      );
    });
    expect(rows[0]).toEqual({
      uid: '11111111-1111-4111-8111-111111111111',
      role: 'authenticated',
      email: 'x@y.z',
      sub: '11111111-1111-4111-8111-111111111111',
    });
  });
});
