import { describe, expect, it } from 'vitest';
import { deriveApiKeys } from '../api-keys.ts';
import { createKeyring, signJwt } from '../jwt.ts';
import { createIdentityCache } from './identity-cache.ts';

const secret = 'identity-cache-test-secret-at-least-32-chars';
const credentials = { keyring: await createKeyring(secret), keys: await deriveApiKeys(secret) };

describe('identity cache', () => {
  it('reuses a verified identity for the same headers', async () => {
    const identify = createIdentityCache(credentials);
    const token = await signJwt({ role: 'authenticated', sub: 'u1' }, credentials.keyring);
    const first = await identify(`Bearer ${token}`, null);
    expect(first).toMatchObject({ ok: true, identity: { role: 'authenticated' } });
    expect(await identify(`Bearer ${token}`, null)).toBe(first);
  });

  it('keys on both headers: the apikey decides when Authorization holds no bearer token', async () => {
    const identify = createIdentityCache(credentials);
    const anon = await signJwt({ role: 'anon' }, credentials.keyring);
    const service = await signJwt({ role: 'service_role' }, credentials.keyring);
    const notBearer = 'Basic dXNlcjpwYXNz';
    expect(await identify(notBearer, anon)).toMatchObject({ identity: { role: 'anon' } });
    expect(await identify(notBearer, service)).toMatchObject({
      identity: { role: 'service_role' },
    });
    expect(await identify(null, service)).toMatchObject({ identity: { role: 'service_role' } });
    expect(await identify(`Bearer ${anon}`, service)).toMatchObject({ identity: { role: 'anon' } });
  });

  it('verifies again once the token has expired, and never caches a failure', async () => {
    let now = 1000;
    const identify = createIdentityCache(credentials, () => now);
    const exp = Math.floor(Date.now() / 1000) + 60;
    const token = await signJwt({ role: 'authenticated', sub: 'u1', exp }, credentials.keyring);
    const first = await identify(`Bearer ${token}`, null);
    expect(first.ok).toBe(true);
    now = exp + 1;
    // Past `exp` by the cache's clock: verified anew (and still valid by the real clock).
    const again = await identify(`Bearer ${token}`, null);
    expect(again.ok).toBe(true);
    expect(again).not.toBe(first);

    const forged = `${token.slice(0, -4)}AAAA`;
    expect(await identify(`Bearer ${forged}`, null)).toMatchObject({ ok: false });
    expect(await identify(`Bearer ${forged}`, null)).toMatchObject({ ok: false });
    expect(await identify(null, null)).toMatchObject({ ok: false, reason: 'missing' });
  });
});
