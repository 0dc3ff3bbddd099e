import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  SignJWT,
  createLocalJWKSet,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  type JWK,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../supabase/local/jwt.ts';
import { generateSigningKey } from '../../supabase/local/signing-keys.ts';
import { startTestPlatform, testClient, type TestPlatform } from '../../sync/testing/index.ts';
import { subscribed } from './realtime-support.ts';

/**
 * Asymmetric JWT signing keys and the opaque API keys, as the Supabase docs describe them
 * ("JWT Signing Keys", "API keys"): access tokens signed with the project's current key, its
 * public half at `/auth/v1/.well-known/jwks.json`, every service verifying them; the legacy
 * HS256 secret still valid; `sb_publishable_…` acting as `anon` and `sb_secret_…` as
 * `service_role` wherever the legacy keys work.
 */
describe('auth: asymmetric signing keys and opaque API keys', () => {
  let t: TestPlatform;
  let es256: JWK;
  let rs256: JWK;
  let publishableKey: string;
  let secretKey: string;

  beforeAll(async () => {
    es256 = await generateSigningKey('ES256');
    rs256 = await generateSigningKey('RS256');
    const dir = await mkdtemp(join(tmpdir(), 'signing-keys-'));
    const path = join(dir, 'signing_keys.json');
    await writeFile(path, JSON.stringify([es256, rs256]));
    t = await startTestPlatform({
      migrationsDir: 'tests/platform/sample-migrations',
      config: {
        jwtSigningKeysPath: path,
        autoconfirm: true,
        functionsDir: 'tests/platform/functions-fixtures',
      },
    });
    ({ publishableKey, secretKey } = t.platform.ctx.keys);
  });
  afterAll(() => t.stop());

  const jwks = async () =>
    (await (await fetch(`${t.url}/auth/v1/.well-known/jwks.json`)).json()) as { keys: JWK[] };

  it('publishes the public halves of the signing keys, never a private member', async () => {
    const { keys } = await jwks();
    expect(keys.map((k) => [k.kid, k.alg, k.kty])).toEqual([
      [es256.kid, 'ES256', 'EC'],
      [rs256.kid, 'RS256', 'RSA'],
    ]);
    for (const key of keys) {
      expect(key).toMatchObject({ use: 'sig', key_ops: ['verify'] });
      for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi'])
        expect(key).not.toHaveProperty(member);
    }
  });

  it('signs sessions with the first key; the token verifies against the JWKS', async () => {
    const client = t.client();
    const email = `asym-${randomUUID()}@example.com`;
    const { data, error } = await client.auth.signUp({ email, password: 'senha-forte-123' });
    expect(error).toBeNull();
    const token = data.session?.access_token ?? '';
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', kid: es256.kid });
    const { payload } = await jwtVerify(token, createLocalJWKSet(await jwks()));
    expect(payload).toMatchObject({ sub: data.user?.id, role: 'authenticated' });
    // supabase-js verifies asymmetric tokens itself with the JWKS.
    const claims = await client.auth.getClaims();
    expect(claims.error).toBeNull();
    expect(claims.data?.claims.sub).toBe(data.user?.id);
  });

  it('an ES256 session works across REST, Storage, Realtime and Functions', async () => {
    const client = t.client();
    const { data } = await client.auth.signUp({
      email: `everywhere-${randomUUID()}@example.com`,
      password: 'senha-forte-123',
    });
    const uid = data.user?.id ?? '';
    const note = await client.from('notes').insert({ body: 'assinado' }).select().single();
    expect(note.error).toBeNull();
    expect(note.data).toMatchObject({ owner_id: uid });

    const up = await client.storage.from('docs').upload(`${uid}/a.txt`, 'olá', {
      contentType: 'text/plain',
    });
    expect(up.error).toBeNull();

    const channel = client.channel(`asym-${randomUUID()}`);
    await subscribed(channel);
    await client.removeChannel(channel);

    const fn = await client.functions.invoke('echo');
    expect(fn.error).toBeNull();
  });

  it('verifies a token of a standby key by its kid; refuses an unknown kid or alg', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: randomUUID(), role: 'authenticated', iat: now, exp: now + 60 };
    const sign = async (jwk: JWK, header: Record<string, string>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: String(jwk.alg), ...header })
        .sign(await importJWK({ ...jwk, key_ops: undefined }, jwk.alg));
    const rest = (token: string) =>
      fetch(`${t.url}/rest/v1/todos?select=id`, {
        headers: { apikey: t.anonKey, Authorization: `Bearer ${token}` },
      });
    expect((await rest(await sign(rs256, { kid: String(rs256.kid) }))).status).toBe(200);
    const stranger = await generateSigningKey('ES256');
    expect((await rest(await sign(stranger, { kid: String(es256.kid) }))).status).toBe(401);
    expect((await rest(await sign(stranger, { kid: String(stranger.kid) }))).status).toBe(401);
    expect((await rest(await sign(es256, {}))).status).toBe(401);
    // The legacy HS256 secret stays valid beside the signing keys.
    const legacy = await signJwt(claims, t.platform.ctx.config.jwtSecret);
    expect((await rest(legacy)).status).toBe(200);
  });

  it('the publishable key acts as anon in every service', async () => {
    expect(publishableKey).toMatch(/^sb_publishable_[\w-]{22}_[\w-]{8}$/);
    const client = testClient(t.url, publishableKey);
    const todos = await client.from('todos').select('id');
    expect(todos.error).toBeNull();
    // anon may not read another user's notes: RLS sees the anon role.
    const admin = testClient(t.url, secretKey);
    const seeded = await admin
      .from('notes')
      .insert({ body: 'de outro', owner_id: randomUUID() })
      .select();
    expect(seeded.error).toBeNull();
    expect((await client.from('notes').select('id')).data).toEqual([]);

    const signed = await client.auth.signUp({
      email: `pub-${randomUUID()}@example.com`,
      password: 'senha-forte-123',
    });
    expect(signed.error).toBeNull();
    expect((await client.from('notes').insert({ body: 'minha' }).select()).error).toBeNull();

    const anonClient = testClient(t.url, publishableKey);
    const channel = anonClient.channel(`pub-${randomUUID()}`);
    await subscribed(channel);
    await anonClient.removeChannel(channel);

    const fn = await anonClient.functions.invoke<{ headers: Record<string, string> }>('echo');
    expect(fn.error).toBeNull();
    // The function receives the legacy anon JWT the key stands for, as behind the gateway.
    expect(fn.data?.headers.authorization).toBe(`Bearer ${t.anonKey}`);
  });

  it('the secret key acts as service_role: admin API, RLS bypassed, storage admin', async () => {
    expect(secretKey).toMatch(/^sb_secret_[\w-]{22}_[\w-]{8}$/);
    const admin = testClient(t.url, secretKey);
    const users = await admin.auth.admin.listUsers();
    expect(users.error).toBeNull();
    expect(users.data.users.length).toBeGreaterThan(0);
    expect((await admin.from('notes').select('id')).data?.length).toBeGreaterThan(0);
    const buckets = await admin.storage.listBuckets();
    expect(buckets.error).toBeNull();
    expect(buckets.data?.map((b) => b.id)).toContain('docs');
  });

  it('refuses an opaque key this project did not issue', async () => {
    const stranger = 'sb_publishable_AAAAAAAAAAAAAAAAAAAAAA_AAAAAAAA';
    const rest = await fetch(`${t.url}/rest/v1/todos`, { headers: { apikey: stranger } });
    expect(rest.status).toBe(401);
    const auth = await fetch(`${t.url}/auth/v1/settings`, { headers: { apikey: stranger } });
    expect(auth.status).toBe(401);
    expect(await auth.json()).toEqual({ message: 'Invalid API key' });
    const storage = await testClient(t.url, stranger).storage.from('avatars').list();
    expect(storage.error).not.toBeNull();
  });

  it('the dev secret gives the Supabase CLI local keys', async () => {
    const plain = await startTestPlatform({ migrationsDir: 'tests/platform/sample-migrations' });
    try {
      expect(plain.platform.ctx.keys.publishableKey).toBe(
        'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH',
      );
      expect(plain.platform.ctx.keys.secretKey).toBe('sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz');
      const res = await fetch(`${plain.url}/auth/v1/.well-known/jwks.json`);
      expect(await res.json()).toEqual({ keys: [] });
    } finally {
      await plain.stop();
    }
  });
});
