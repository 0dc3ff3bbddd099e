import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_JWT_SECRET } from '../../supabase/local/config.ts';
import { signJwt } from '../../supabase/local/jwt.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';

/**
 * Hostile and malformed input to /auth/v1: every case must get a 4xx in GoTrue's error format
 * (never a 5xx), and the server must keep serving afterwards.
 */

const PASSWORD = 'senha-forte-123';
const EMAIL = `bad-input-${process.pid}@example.com`;
const GHOST = '00000000-0000-4000-8000-000000000001';

type Tokens = Record<
  | 'user'
  | 'service'
  | 'anon'
  | 'expired'
  | 'wrongSecret'
  | 'algNone'
  | 'tampered'
  | 'garbage'
  | 'badSub'
  | 'ghostSession'
  | 'ghostUser',
  string
>;

type Case = {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string | ((ids: { userId: string }) => string);
  body?: string;
  auth?: keyof Tokens;
  status: number;
  code: string;
};

const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

const CASES: Case[] = [
  {
    name: 'signup: malformed JSON',
    method: 'POST',
    path: '/signup',
    body: '{"email":',
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'signup: empty body',
    method: 'POST',
    path: '/signup',
    body: '',
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'signup: array body',
    method: 'POST',
    path: '/signup',
    body: '[1,2]',
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'signup: string body',
    method: 'POST',
    path: '/signup',
    body: '"x"',
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'signup: email is a number',
    method: 'POST',
    path: '/signup',
    body: JSON.stringify({ email: 42, password: PASSWORD }),
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'signup: data is a string',
    method: 'POST',
    path: '/signup',
    body: JSON.stringify({ email: 'x@example.com', password: PASSWORD, data: 'nope' }),
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'signup: password is an object',
    method: 'POST',
    path: '/signup',
    body: JSON.stringify({ email: 'x@example.com', password: { $gt: '' } }),
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'signup: huge body',
    method: 'POST',
    path: '/signup',
    body: JSON.stringify({
      email: 'x@example.com',
      password: PASSWORD,
      data: { blob: 'a'.repeat(2 * 1024 * 1024) },
    }),
    status: 413,
    code: 'validation_failed',
  },
  {
    name: 'signup: metadata nested 100000 levels deep',
    method: 'POST',
    path: '/signup',
    body: `{"email":"deep@example.com","password":"${PASSWORD}","data":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`,
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'update user: metadata nested 100 levels deep',
    method: 'PUT',
    path: '/user',
    auth: 'user',
    body: JSON.stringify({
      data: JSON.parse(`${'{"a":'.repeat(100)}1${'}'.repeat(100)}`) as unknown,
    }),
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'signup: no password',
    method: 'POST',
    path: '/signup',
    body: JSON.stringify({ email: 'x@example.com' }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'signup: nothing at all (anonymous sign-in)',
    method: 'POST',
    path: '/signup',
    body: '{}',
    status: 422,
    code: 'anonymous_provider_disabled',
  },
  {
    name: 'signup: invalid e-mail',
    method: 'POST',
    path: '/signup',
    body: JSON.stringify({ email: 'not-an-email', password: PASSWORD }),
    status: 400,
    code: 'email_address_invalid',
  },
  {
    name: 'signup: e-mail with SQL',
    method: 'POST',
    path: '/signup',
    body: JSON.stringify({
      email: "x'; drop table auth.users; --@example.com",
      password: PASSWORD,
    }),
    status: 400,
    code: 'email_address_invalid',
  },
  {
    name: 'signup: password over 72 bytes',
    method: 'POST',
    path: '/signup',
    body: JSON.stringify({ email: 'long@example.com', password: 'é'.repeat(40) }),
    status: 422,
    code: 'validation_failed',
  },
  {
    name: 'signup: code_challenge without method',
    method: 'POST',
    path: '/signup',
    body: JSON.stringify({
      email: 'x@example.com',
      password: PASSWORD,
      code_challenge: 'a'.repeat(43),
    }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'signup: unknown code_challenge_method',
    method: 'POST',
    path: '/signup',
    body: JSON.stringify({
      email: 'x@example.com',
      password: PASSWORD,
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'md5',
    }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'token: no grant_type',
    method: 'POST',
    path: '/token',
    body: '{}',
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'token: unknown grant_type',
    method: 'POST',
    path: '/token?grant_type=client_credentials',
    body: '{}',
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'token: password grant with array e-mail',
    method: 'POST',
    path: '/token?grant_type=password',
    body: JSON.stringify({ email: ['a@example.com'], password: 'x' }),
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'token: password grant, malformed JSON',
    method: 'POST',
    path: '/token?grant_type=password',
    body: '{email: a}',
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'token: password grant without e-mail',
    method: 'POST',
    path: '/token?grant_type=password',
    body: JSON.stringify({ password: 'x' }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'token: refresh without token',
    method: 'POST',
    path: '/token?grant_type=refresh_token',
    body: '{}',
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'token: refresh with a number',
    method: 'POST',
    path: '/token?grant_type=refresh_token',
    body: JSON.stringify({ refresh_token: 12 }),
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'token: unknown refresh token',
    method: 'POST',
    path: '/token?grant_type=refresh_token',
    body: JSON.stringify({ refresh_token: "' or 1=1 --" }),
    status: 400,
    code: 'refresh_token_not_found',
  },
  {
    name: 'token: pkce without verifier',
    method: 'POST',
    path: '/token?grant_type=pkce',
    body: JSON.stringify({ auth_code: 'x' }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'token: pkce with an unknown code',
    method: 'POST',
    path: '/token?grant_type=pkce',
    body: JSON.stringify({ auth_code: 'not-a-uuid', code_verifier: 'v' }),
    status: 404,
    code: 'flow_state_not_found',
  },
  {
    name: 'token: NUL byte in the e-mail',
    method: 'POST',
    path: '/token?grant_type=password',
    body: JSON.stringify({ email: 'a\u0000@example.com', password: 'x' }),
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'token: NUL byte in the refresh token',
    method: 'POST',
    path: '/token?grant_type=refresh_token',
    body: JSON.stringify({ refresh_token: 'a\u0000b' }),
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'token: NUL byte in the auth code',
    method: 'POST',
    path: '/token?grant_type=pkce',
    body: JSON.stringify({ auth_code: 'a\u0000', code_verifier: 'v' }),
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'signup: NUL byte in the metadata',
    method: 'POST',
    path: '/signup',
    body: JSON.stringify({
      email: 'nul@example.com',
      password: PASSWORD,
      data: { nome: 'a\u0000' },
    }),
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'verify: NUL byte in the token hash',
    method: 'POST',
    path: '/verify',
    body: JSON.stringify({ type: 'signup', token_hash: '\u0000' }),
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'recover: NUL byte in the e-mail',
    method: 'POST',
    path: '/recover',
    body: JSON.stringify({ email: 'a@exa\u0000mple.com' }),
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'verify link: NUL byte in the token',
    method: 'GET',
    path: '/verify?type=signup&token=%00',
    status: 400,
    code: 'validation_failed',
  },
  { name: 'user: no bearer', method: 'GET', path: '/user', status: 401, code: 'no_authorization' },
  {
    name: 'user: garbage bearer',
    method: 'GET',
    path: '/user',
    auth: 'garbage',
    status: 403,
    code: 'bad_jwt',
  },
  {
    name: 'user: expired JWT',
    method: 'GET',
    path: '/user',
    auth: 'expired',
    status: 403,
    code: 'bad_jwt',
  },
  {
    name: 'user: JWT of another secret',
    method: 'GET',
    path: '/user',
    auth: 'wrongSecret',
    status: 403,
    code: 'bad_jwt',
  },
  {
    name: 'user: alg none JWT',
    method: 'GET',
    path: '/user',
    auth: 'algNone',
    status: 403,
    code: 'bad_jwt',
  },
  {
    name: 'user: tampered payload',
    method: 'GET',
    path: '/user',
    auth: 'tampered',
    status: 403,
    code: 'bad_jwt',
  },
  {
    name: 'user: anon key (no sub)',
    method: 'GET',
    path: '/user',
    auth: 'anon',
    status: 403,
    code: 'bad_jwt',
  },
  {
    name: 'user: sub is not a uuid',
    method: 'GET',
    path: '/user',
    auth: 'badSub',
    status: 403,
    code: 'bad_jwt',
  },
  {
    name: 'user: session gone',
    method: 'GET',
    path: '/user',
    auth: 'ghostSession',
    status: 403,
    code: 'session_not_found',
  },
  {
    name: 'user: user gone',
    method: 'GET',
    path: '/user',
    auth: 'ghostUser',
    status: 403,
    code: 'user_not_found',
  },
  {
    name: 'update user: malformed JSON',
    method: 'PUT',
    path: '/user',
    auth: 'user',
    body: '{"data": {',
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'update user: data is an array',
    method: 'PUT',
    path: '/user',
    auth: 'user',
    body: JSON.stringify({ data: [1] }),
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'update user: app_metadata',
    method: 'PUT',
    path: '/user',
    auth: 'user',
    body: JSON.stringify({ app_metadata: { role: 'admin' } }),
    status: 403,
    code: 'not_admin',
  },
  {
    name: 'update user: invalid e-mail',
    method: 'PUT',
    path: '/user',
    auth: 'user',
    body: JSON.stringify({ email: 'nope' }),
    status: 400,
    code: 'email_address_invalid',
  },
  {
    name: 'update user: expired JWT',
    method: 'PUT',
    path: '/user',
    auth: 'expired',
    body: '{}',
    status: 403,
    code: 'bad_jwt',
  },
  {
    name: 'logout: unknown scope',
    method: 'POST',
    path: '/logout?scope=everything',
    auth: 'user',
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'logout: no bearer',
    method: 'POST',
    path: '/logout',
    status: 401,
    code: 'no_authorization',
  },
  {
    name: 'logout: alg none',
    method: 'POST',
    path: '/logout',
    auth: 'algNone',
    status: 403,
    code: 'bad_jwt',
  },
  {
    name: 'verify: empty body',
    method: 'POST',
    path: '/verify',
    body: '{}',
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'verify: unknown type',
    method: 'POST',
    path: '/verify',
    body: JSON.stringify({ type: 'bogus', token_hash: 'x' }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'verify: unknown token hash',
    method: 'POST',
    path: '/verify',
    body: JSON.stringify({ type: 'signup', token_hash: 'deadbeef' }),
    status: 403,
    code: 'otp_expired',
  },
  {
    name: 'verify: wrong 6-digit code',
    method: 'POST',
    path: '/verify',
    body: JSON.stringify({ type: 'email', email: EMAIL, token: '000000' }),
    status: 403,
    code: 'otp_expired',
  },
  {
    name: 'verify link: no token',
    method: 'GET',
    path: '/verify?type=signup',
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'verify link: no type',
    method: 'GET',
    path: '/verify?token=abc',
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'recover: no e-mail',
    method: 'POST',
    path: '/recover',
    body: '{}',
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'recover: invalid e-mail',
    method: 'POST',
    path: '/recover',
    body: JSON.stringify({ email: 'x' }),
    status: 400,
    code: 'email_address_invalid',
  },
  {
    name: 'resend: unknown type',
    method: 'POST',
    path: '/resend',
    body: JSON.stringify({ type: 'magic', email: EMAIL }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'resend: sms',
    method: 'POST',
    path: '/resend',
    body: JSON.stringify({ type: 'sms', phone: '+5511900000000' }),
    status: 400,
    code: 'phone_provider_disabled',
  },
  {
    name: 'admin: anon key',
    method: 'GET',
    path: '/admin/users',
    auth: 'anon',
    status: 403,
    code: 'not_admin',
  },
  {
    name: 'admin: user token',
    method: 'GET',
    path: '/admin/users',
    auth: 'user',
    status: 403,
    code: 'not_admin',
  },
  {
    name: 'admin: no bearer',
    method: 'GET',
    path: '/admin/users',
    status: 401,
    code: 'no_authorization',
  },
  {
    name: 'admin: alg none claiming service_role',
    method: 'GET',
    path: '/admin/users',
    auth: 'algNone',
    status: 403,
    code: 'bad_jwt',
  },
  {
    name: 'admin: id is not a uuid',
    method: 'GET',
    path: '/admin/users/1%20or%201=1',
    auth: 'service',
    status: 404,
    code: 'user_not_found',
  },
  {
    name: 'admin: page is not a number',
    method: 'GET',
    path: '/admin/users?page=abc',
    auth: 'service',
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'admin: create with e-mail as number',
    method: 'POST',
    path: '/admin/users',
    auth: 'service',
    body: JSON.stringify({ email: 5 }),
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'admin: create with email_confirm as string',
    method: 'POST',
    path: '/admin/users',
    auth: 'service',
    body: JSON.stringify({ email: 'ok@example.com', email_confirm: 'yes' }),
    status: 400,
    code: 'bad_json',
  },
  {
    name: 'admin: update with a bad ban duration',
    method: 'PUT',
    path: ({ userId }) => `/admin/users/${userId}`,
    auth: 'service',
    body: JSON.stringify({ ban_duration: 'forever' }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'admin: delete with malformed JSON',
    method: 'DELETE',
    path: ({ userId }) => `/admin/users/${userId}`,
    auth: 'service',
    body: '{"should_soft_delete":',
    status: 400,
    code: 'bad_json',
  },
];

describe('auth rejects bad input with GoTrue 4xx errors', () => {
  let t: TestPlatform;
  let tokens: Tokens;
  let userId: string;

  beforeAll(async () => {
    t = await startTestPlatform({
      migrationsDir: 'tests/platform/sample-migrations',
      config: { bcryptCost: 4 },
    });
    const created = await t.admin.auth.admin.createUser({
      email: EMAIL,
      password: PASSWORD,
      email_confirm: true,
    });
    userId = created.data.user?.id ?? '';
    const client = t.client();
    const { data } = await client.auth.signInWithPassword({ email: EMAIL, password: PASSWORD });
    const user = data.session?.access_token ?? '';
    const [header, payload] = user.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const sign = (c: Record<string, unknown>, secret = DEV_JWT_SECRET) => signJwt(c, secret);
    tokens = {
      user,
      service: t.serviceRoleKey,
      anon: t.anonKey,
      expired: await sign({ ...claims, iat: now() - 7200, exp: now() - 3600 }),
      wrongSecret: await sign(claims, 'another-secret-that-is-at-least-32-characters'),
      algNone: `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ ...claims, role: 'service_role' })}.`,
      tampered: `${header}.${b64url({ ...claims, sub: GHOST })}.${user.split('.')[2]}`,
      garbage: 'not.a.jwt',
      badSub: await sign({ ...claims, sub: "1' or '1'='1" }),
      ghostSession: await sign({ ...claims, session_id: GHOST }),
      ghostUser: await sign({
        sub: GHOST,
        role: 'authenticated',
        aud: 'authenticated',
        exp: now() + 3600,
      }),
    };
  });
  afterAll(() => t.stop());

  it.each(CASES)('$name → $status $code', async (c) => {
    const headers: Record<string, string> = {
      apikey: t.anonKey,
      'Content-Type': 'application/json;charset=UTF-8',
      'X-Supabase-Api-Version': '2024-01-01',
    };
    if (c.auth) headers.Authorization = `Bearer ${tokens[c.auth]}`;
    const path = typeof c.path === 'function' ? c.path({ userId }) : c.path;
    const res = await fetch(`${t.url}/auth/v1${path}`, {
      method: c.method,
      headers,
      ...(c.body !== undefined ? { body: c.body } : {}),
    });
    const body = (await res.json()) as Record<string, unknown>;
    expect({ status: res.status, code: body.code }).toEqual({ status: c.status, code: c.code });
    expect(typeof body.message).toBe('string');
    expect(res.headers.get('x-sb-error-code')).toBe(c.code);
    expect(res.headers.get('x-supabase-api-version')).toBe('2024-01-01');
  });

  it('answers the legacy shape to a client that names no API version', async () => {
    const res = await fetch(`${t.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: t.anonKey, 'Content-Type': 'application/json' },
      body: '{"email":',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 400, error_code: 'bad_json' });
    expect(typeof body.msg).toBe('string');
  });

  it('rejects requests without a valid API key like the gateway does', async () => {
    const missing = await fetch(`${t.url}/auth/v1/settings`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ message: 'No API key found in request' });
    const wrong = await fetch(`${t.url}/auth/v1/settings`, {
      headers: { apikey: 'sb_publishable_nope' },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: 'Invalid API key' });
  });

  it('keeps serving: the user still signs in and reads their profile', async () => {
    const client = t.client();
    const { error } = await client.auth.signInWithPassword({ email: EMAIL, password: PASSWORD });
    expect(error).toBeNull();
    expect((await client.auth.getUser()).data.user?.email).toBe(EMAIL);
  });
});
