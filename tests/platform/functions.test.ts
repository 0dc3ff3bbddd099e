import { randomUUID } from 'node:crypto';
import { FunctionsHttpError, FunctionsRelayError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFunctionsApp } from '../../supabase/local/functions/index.ts';
import { signJwt } from '../../supabase/local/jwt.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';

/** What `functions.invoke` resolves to, with its `any` error narrowed to `unknown`. */
type Invoked = { data: unknown; error: unknown };

const SETUP_TOKEN = 'setup-token-for-the-suite-0123';

describe('edge functions runner', () => {
  let t: TestPlatform;
  let userToken: string;
  const userId = randomUUID();

  beforeAll(async () => {
    t = await startTestPlatform({
      migrationsDir: 'tests/platform/sample-migrations',
      config: {
        functionsDir: 'tests/platform/functions-fixtures',
        setupToken: SETUP_TOKEN,
        // As `[functions.public-hook] verify_jwt = false` in config.toml.
        functions: { 'public-hook': { verifyJwt: false } },
      },
    });
    const now = Math.floor(Date.now() / 1000);
    userToken = await signJwt(
      { sub: userId, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + 3600 },
      t.platform.ctx.config.jwtSecret,
    );
  });
  afterAll(() => t.stop());

  const fn = (path: string, init: RequestInit = {}) => fetch(`${t.url}/functions/v1/${path}`, init);

  it('passes a JSON body, method, subpath, query and caller headers through', async () => {
    const res: Invoked = await t
      .client()
      .functions.invoke<unknown>('echo/appointments/42?expand=1', {
        body: { appointmentId: 'a1' },
        headers: { 'x-custom': 'yes' },
      });
    expect(res.error).toBeNull();
    expect(res.data).toMatchObject({
      method: 'POST',
      pathname: '/echo/appointments/42',
      search: '?expand=1',
      body: JSON.stringify({ appointmentId: 'a1' }),
      headers: {
        'content-type': 'application/json',
        'x-custom': 'yes',
        authorization: `Bearer ${t.anonKey}`,
      },
    });
    expect((res.data as { headers: Record<string, string> }).headers['x-client-info']).toMatch(
      /^supabase-js/,
    );
  });

  it('passes text and empty bodies, and other methods', async () => {
    const text = await t.client().functions.invoke('echo', { body: 'olá' });
    expect(text.data).toMatchObject({ body: 'olá', headers: { 'content-type': 'text/plain' } });
    const empty = await t.client().functions.invoke('echo');
    expect(empty.data).toMatchObject({ method: 'POST', body: '' });
    const get = await t.client().functions.invoke('echo', { method: 'GET' });
    expect(get.data).toMatchObject({ method: 'GET', body: '' });
    const del = await t.client().functions.invoke('echo', { method: 'DELETE', body: { id: 1 } });
    expect(del.data).toMatchObject({ method: 'DELETE', body: '{"id":1}' });
  });

  it("hands the signed-in user's JWT to the function", async () => {
    const client = t.client();
    client.functions.setAuth(userToken);
    const res: Invoked = await client.functions.invoke<unknown>('echo', { body: {} });
    expect(res.data).toMatchObject({ headers: { authorization: `Bearer ${userToken}` } });
  });

  it('returns non-JSON responses as the client parses them', async () => {
    const res: Invoked = await t.client().functions.invoke<unknown>('text-reply');
    expect(res.error).toBeNull();
    expect(res.data).toBe('plain hello');
  });

  it("passes the function's own error status and body through as FunctionsHttpError", async () => {
    const res: Invoked = await t.client().functions.invoke<unknown>('fail', { body: {} });
    expect(res.data).toBeNull();
    expect(res.error).toBeInstanceOf(FunctionsHttpError);
    const response = (res.error as FunctionsHttpError).context as Response;
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'appointment_not_found',
      message: 'Consulta não encontrada.',
    });
  });

  it('answers a thrown handler with 500 WORKER_ERROR and no stack or message leak', async () => {
    const res: Invoked = await t.client().functions.invoke<unknown>('throws');
    expect(res.error).toBeInstanceOf(FunctionsHttpError);
    const response = (res.error as FunctionsHttpError).context as Response;
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      code: 'WORKER_ERROR',
      message: 'Function exited due to an error (please check logs)',
    });
    expect(text).not.toMatch(/internal detail|at |\.ts/);
    // The runner keeps serving after a crash.
    expect((await t.client().functions.invoke('text-reply')).data).toBe('plain hello');
  });

  it('answers a module that fails to start with a relay error', async () => {
    const res: Invoked = await t.client().functions.invoke<unknown>('boot-fail');
    expect(res.error).toBeInstanceOf(FunctionsRelayError);
    const response = (res.error as FunctionsRelayError).context as Response;
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      code: 'BOOT_ERROR',
      message: 'Function failed to start (please check logs)',
    });
  });

  it('exposes the platform env, read at request time, and only that', async () => {
    process.env.FUNCTION_ENV_GREETING = 'oi';
    try {
      const res: Invoked = await t.client().functions.invoke<unknown>('env');
      expect(res.data).toMatchObject({
        SUPABASE_URL: t.url,
        SUPABASE_ANON_KEY: t.anonKey,
        SUPABASE_SERVICE_ROLE_KEY: t.serviceRoleKey,
        MAILBOX_URL: `${t.url}/mailbox/api/send`,
        SETUP_TOKEN,
        GREETING: 'oi',
        HOME: null,
      });
    } finally {
      delete process.env.FUNCTION_ENV_GREETING;
    }
  });

  it('lets a function use supabase-js against the platform with the service role', async () => {
    const res: Invoked = await t.client().functions.invoke<unknown>('with-client');
    expect(res.error).toBeNull();
    expect(res.data).toEqual({ buckets: ['avatars', 'docs'] });
  });

  it('answers unknown or invalid function names with the gateway 404', async () => {
    const res: Invoked = await t.client().functions.invoke<unknown>('no-such-function');
    expect(res.error).toBeInstanceOf(FunctionsHttpError);
    const response = (res.error as FunctionsHttpError).context as Response;
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      code: 'NOT_FOUND',
      message: 'Requested function was not found',
    });
  });

  it.each([
    ['a shared-code folder', '_shared'],
    ['a traversal', '..%2F..%2Fpackage.json'],
    ['a file name', 'echo.ts'],
    ['a nested name', 'echo%2Fsub'],
    ['upper case', 'ECHO'],
    ['a NUL byte', 'echo%00'],
    ['an absurd length', 'a'.repeat(5000)],
    ['no name', ''],
  ])('404s %s', async (_label, name) => {
    const res = await fn(name, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.anonKey}` },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: 'NOT_FOUND',
      message: 'Requested function was not found',
    });
  });

  describe('JWT verification (verify_jwt, on by default)', () => {
    const tamper = (jwt: string) => {
      const [h, p, s] = jwt.split('.');
      const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString()) as Record<
        string,
        unknown
      >;
      claims.role = 'service_role';
      return `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
    };

    it('refuses a request without Authorization', async () => {
      const res = await fn('echo', { method: 'POST', headers: { apikey: t.anonKey } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: 401, message: 'Missing authorization header' });
    });

    it.each([
      ['a tampered payload', () => tamper(userToken)],
      ['a garbage token', () => 'not.a.jwt'],
      [
        'an unsigned token',
        () => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${userToken.split('.')[1]}.`,
      ],
      ['a non-bearer scheme', () => `Basic ${Buffer.from('a:b').toString('base64')}`],
      [
        'an expired token',
        () =>
          signJwt(
            { role: 'authenticated', sub: userId, exp: 1_000 },
            t.platform.ctx.config.jwtSecret,
          ),
      ],
    ])('refuses %s with 401 Invalid JWT', async (_label, make) => {
      const token = await make();
      const res = await fn('echo', {
        method: 'POST',
        headers: { Authorization: token.startsWith('Basic') ? token : `Bearer ${token}` },
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: 401, message: 'Invalid JWT' });
    });

    it('lets a function opt out with [functions.<name>] verify_jwt = false', async () => {
      const res = await fn('public-hook', { method: 'POST' });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('hook ok');
    });
  });

  it('answers the CORS preflight and marks responses for the browser', async () => {
    const preflight = await fn('echo', {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, x-client-info, apikey, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');

    const res = await fn('echo', {
      method: 'POST',
      headers: { Origin: 'http://localhost:5173', Authorization: `Bearer ${t.anonKey}` },
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-expose-headers')).toContain('x-relay-error');
  });

  it('answers a handler that exceeds the wall-clock limit with 546 WORKER_LIMIT', async () => {
    const app = createFunctionsApp(t.platform.ctx, { timeoutMs: 20 });
    const res = await app.request(`${t.url}/functions/v1/slow`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.anonKey}` },
    });
    expect(res.status).toBe(546);
    expect(await res.json()).toMatchObject({ code: 'WORKER_LIMIT' });
  });
});
