import type { Context } from 'hono';
import type { PlatformContext } from '../context.ts';
import { signJwt, verifyJwt } from '../jwt.ts';
import type { Identity } from '../request-auth.ts';
import { caller, NO_JWT } from './caller.ts';
import { errors, fail } from './errors.ts';
import { probeWrite, upsertHeader, writeObject } from './object-write.ts';
import { findBucket } from './objects.ts';

/** How long a signed upload URL stays valid, as on hosted Supabase. */
const SIGNED_UPLOAD_TTL_S = 2 * 60 * 60;

type Target = { bucket: string; key: string };

/**
 * `createSignedUploadUrl(path)`: the caller must be allowed to write the key now (checked by
 * RLS); the token then lets anyone holding it upload that one key once, as that caller.
 */
export async function signUpload(c: Context, ctx: PlatformContext, t: Target): Promise<Response> {
  const identity = await caller(c, ctx);
  const upsert = upsertHeader(c.req.header('x-upsert'));
  if (!(await findBucket(ctx.db, t.bucket))) fail(errors.noSuchBucket());
  await probeWrite(c, ctx, identity, t, upsert ? 'upsert' : 'create');
  const iat = Math.floor(Date.now() / 1000);
  const sub = typeof identity.claims.sub === 'string' ? identity.claims.sub : undefined;
  const token = await signJwt(
    { url: `${t.bucket}/${t.key}`, owner: sub, upsert, iat, exp: iat + SIGNED_UPLOAD_TTL_S },
    ctx.keyring,
  );
  return c.json({ url: `/object/upload/sign/${t.bucket}/${t.key}?token=${token}`, token });
}

/** `uploadToSignedUrl(path, token, body)`: writes as the service, owned by who signed. */
export async function uploadSigned(c: Context, ctx: PlatformContext, t: Target): Promise<Response> {
  const token = c.req.query('token');
  if (!token) return fail(errors.invalidJwt(NO_JWT));
  const verified = await verifyJwt(token, ctx.keyring);
  if (!verified.ok) return fail(errors.invalidJwt(verified.detail));
  const { url, owner, upsert } = verified.claims;
  if (url !== `${t.bucket}/${t.key}`) fail(errors.invalidSignature());
  const as: Identity = {
    role: 'service_role',
    claims: { role: 'service_role', ...(typeof owner === 'string' ? { sub: owner } : {}) },
    token,
  };
  return writeObject(c, ctx, t, upsert === true ? 'upsert' : 'create', as);
}
