import { createHmac } from 'node:crypto';
import { DEV_JWT_SECRET } from './config.ts';
import { signJwt } from './jwt.ts';

/**
 * The project's API keys: the legacy `anon` / `service_role` JWTs and the opaque
 * `sb_publishable_…` / `sb_secret_…` keys current Supabase projects hand out instead.
 */
export type ApiKeys = {
  anonKey: string;
  serviceRoleKey: string;
  publishableKey: string;
  secretKey: string;
};

/** The far-future `exp` of the CLI's legacy keys. */
const KEY_EXP = 1983812996;

/** The Supabase CLI's fixed local keys, used with its documented development secret. */
const CLI_PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH';
const CLI_SECRET_KEY = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz';

/**
 * An opaque key in the hosted shape (`sb_<kind>_` + 22 + `_` + 8 url-safe characters),
 * derived from the secret so `npm run keys` prints the keys the server accepts. An HMAC: the
 * publishable key says nothing about the secret key or the JWT secret.
 */
function opaqueKey(kind: 'publishable' | 'secret', secret: string): string {
  const mac = createHmac('sha256', secret).update(`supabase-local ${kind} key`).digest('base64url');
  return `sb_${kind}_${mac.slice(0, 22)}_${mac.slice(22, 30)}`;
}

/**
 * The legacy keys exactly as the Supabase CLI derives them (HS256 JWTs with only `iss`, `role`
 * and a far-future `exp`) and the opaque keys; with the dev secret all four are the CLI's.
 */
export async function deriveApiKeys(secret: string): Promise<ApiKeys> {
  const sign = (role: string) => signJwt({ iss: 'supabase-demo', role, exp: KEY_EXP }, secret);
  const dev = secret === DEV_JWT_SECRET;
  return {
    anonKey: await sign('anon'),
    serviceRoleKey: await sign('service_role'),
    publishableKey: dev ? CLI_PUBLISHABLE_KEY : opaqueKey('publishable', secret),
    secretKey: dev ? CLI_SECRET_KEY : opaqueKey('secret', secret),
  };
}

/** Whether a credential is one of the opaque keys (which are never JWTs). */
export function isOpaqueKey(key: string): boolean {
  return key.startsWith('sb_');
}

/**
 * What the Supabase gateway turns an opaque key into before any service sees it: the legacy
 * JWT of the same role (publishable → `anon`, secret → `service_role`). Undefined for a key
 * this project did not issue.
 */
export function jwtForOpaqueKey(key: string, keys: ApiKeys): string | undefined {
  if (key === keys.publishableKey) return keys.anonKey;
  if (key === keys.secretKey) return keys.serviceRoleKey;
  return undefined;
}
