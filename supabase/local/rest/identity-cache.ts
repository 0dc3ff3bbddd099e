import { identify, type IdentityResult } from '../request-auth.ts';

const MAX_ENTRIES = 1000;

/**
 * Verifying an HS256 token costs a WebCrypto round per request; clients repeat the same token
 * for its whole life, so a verified identity is reused until the token's own `exp`. Failures
 * are never cached, so a bad token cannot poison the cache.
 */
export function createIdentityCache(secret: string, now: () => number = () => Date.now() / 1000) {
  const verified = new Map<string, { result: IdentityResult; until: number }>();
  return async (authorization: string | null, apikey: string | null): Promise<IdentityResult> => {
    const key = `${authorization ?? ''}\n${apikey ?? ''}`;
    const hit = verified.get(key);
    if (hit && hit.until > now()) return hit.result;
    const result = await identify({ authorization, apikey }, secret);
    if (result.ok) {
      if (verified.size >= MAX_ENTRIES) verified.clear();
      verified.set(key, { result, until: result.identity.claims.exp ?? Number.POSITIVE_INFINITY });
    } else verified.delete(key);
    return result;
  };
}
