import { identify, type Credentials, type IdentityResult } from '../request-auth.ts';

const MAX_ENTRIES = 1000;

type Entry = { result: IdentityResult; until: number };

/**
 * Verifying an HS256 token costs a WebCrypto round per request; clients repeat the same token
 * for its whole life, so a verified identity is reused until the token's own `exp`. Failures
 * are never cached, so a bad token cannot poison the cache. Entries are found by both headers
 * the identity depends on, one map inside the other: a key joining the two tokens would be a
 * new string of several hundred characters to build and hash on every request.
 */
export function createIdentityCache(
  credentials: Credentials,
  now: () => number = () => Date.now() / 1000,
) {
  const verified = new Map<string, Map<string, Entry>>();
  let size = 0;
  return async (authorization: string | null, apikey: string | null): Promise<IdentityResult> => {
    const outer = authorization ?? '';
    const inner = apikey ?? '';
    const hit = verified.get(outer)?.get(inner);
    if (hit && hit.until > now()) return hit.result;
    const result = await identify({ authorization, apikey }, credentials);
    // Looked up again: the cache may have been cleared while the token was verified.
    let entries = verified.get(outer);
    if (!result.ok) {
      if (entries?.delete(inner)) size--;
      return result;
    }
    if (size >= MAX_ENTRIES) {
      verified.clear();
      size = 0;
      entries = undefined;
    }
    if (!entries) verified.set(outer, (entries = new Map<string, Entry>()));
    if (!entries.has(inner)) size++;
    entries.set(inner, { result, until: result.identity.claims.exp ?? Number.POSITIVE_INFINITY });
    return result;
  };
}
