import type { Context } from 'hono';
import type { PlatformContext } from '../context.ts';
import type { Database, Queryable } from '../db/index.ts';
import { identify, runAs, type Identity } from '../request-auth.ts';
import { errors, fail } from './errors.ts';

/**
 * What storage-api answers for a request without a token: it verifies the empty string, and
 * jose refuses anything that is not three dot-separated parts with these words.
 */
export const NO_JWT = 'Invalid Compact JWS';

/**
 * Verifies the caller's JWT (bearer first, then `apikey`). storage-api's `auth-jwt` hook turns
 * every verification failure, a missing token included, into `AccessDenied` (body statusCode
 * 403, HTTP 400) with jose's message; an opaque key this project did not issue never reaches
 * that hook, so it keeps the gateway's `InvalidJWT`.
 */
export async function caller(c: Context, ctx: PlatformContext): Promise<Identity> {
  const result = await identify(
    { authorization: c.req.header('authorization'), apikey: c.req.header('apikey') },
    ctx,
  );
  if (result.ok) return result.identity;
  if (result.reason === 'invalid_api_key') return fail(errors.invalidJwt(result.message));
  const message = result.reason === 'missing' ? NO_JWT : (result.detail ?? result.message);
  return fail(errors.accessDenied(message));
}

/** The object owner as the service records it: `owner` only when `sub` is a uuid. */
export function ownerOf(identity: Identity): { owner: string | null; ownerId: string | null } {
  const sub = typeof identity.claims.sub === 'string' ? identity.claims.sub : null;
  const isUuid =
    sub !== null && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sub);
  return { owner: isUuid ? sub : null, ownerId: sub };
}

/**
 * Runs `fn` as the caller, so RLS on storage.objects and storage.buckets decides, in one
 * transaction that `asPlatform` can later switch to the server's own role within.
 */
export function asCaller<T>(
  db: Database,
  identity: Identity,
  c: Context,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return runAs(db, identity, { method: c.req.method, path: c.req.path }, fn);
}

/**
 * Leaves the caller's role for the rest of the transaction: used only after RLS has allowed
 * the row, to read or write the object's bytes, which no API role can reach.
 */
export async function asPlatform(tx: Queryable): Promise<void> {
  await tx.query('reset role');
}
