import type { Context } from 'hono';
import * as v from 'valibot';
import type { PlatformContext } from '../context.ts';
import { signJwt, verifyJwt } from '../jwt.ts';
import { asCaller, caller, NO_JWT } from './caller.ts';
import { errors, fail } from './errors.ts';
import { readJson } from './json-body.ts';
import { readObject } from './objects.ts';
import type { Serve } from './object-read.ts';
import {
  renderImage,
  transformClaim,
  transformFromBody,
  transformFromClaim,
} from './render-image.ts';
import { downloadParam, objectResponse } from './serve-object.ts';

type Target = { bucket: string; key: string };

/**
 * Seconds, as a number or a string of digits: the service's schema coerces types (the Python
 * client sends `"60"`).
 */
const EXPIRES_IN = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,10}$/), v.transform(Number))]),
  v.integer(),
  v.minValue(1),
  v.maxValue(10 * 365 * 24 * 3600),
);
const SignBody = v.object({ expiresIn: EXPIRES_IN, transform: v.optional(v.unknown()) });
const SignManyBody = v.object({
  expiresIn: EXPIRES_IN,
  paths: v.pipe(v.array(v.pipe(v.string(), v.maxLength(1024))), v.minLength(1), v.maxLength(1000)),
});

/**
 * The token is a JWT over `{url: "<bucket>/<key>"}` signed with the project secret, as the
 * service issues it; the signed URL is returned unencoded because supabase-js `encodeURI`s it.
 * A transform travels in the token (`transformations`) and makes it a `/render/image` URL.
 */
async function signedUrl(
  ctx: PlatformContext,
  t: Target,
  expiresIn: number,
  transformations = '',
): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  const token = await signJwt(
    {
      url: `${t.bucket}/${t.key}`,
      ...(transformations ? { transformations } : {}),
      iat,
      exp: iat + expiresIn,
    },
    ctx.keyring,
  );
  return `/${transformations ? 'render/image' : 'object'}/sign/${t.bucket}/${t.key}?token=${token}`;
}

/** `createSignedUrl(path, s)`: only for an object the caller may SELECT. */
export async function signOne(c: Context, ctx: PlatformContext, t: Target): Promise<Response> {
  const identity = await caller(c, ctx);
  const { expiresIn, transform } = await readJson(c.req.raw, SignBody);
  const transformations = transformClaim(transformFromBody(transform));
  await asCaller(ctx.db, identity, c, async (tx) => {
    const found = await tx.query(
      'select 1 from storage.objects where bucket_id = $1 and name = $2',
      [t.bucket, t.key],
    );
    if (found.rows.length === 0) fail(errors.noSuchKey());
  });
  return c.json({ signedURL: await signedUrl(ctx, t, expiresIn, transformations) });
}

/** `createSignedUrls(paths, s)`: one entry per path, with an error for the unreadable ones. */
export async function signMany(
  c: Context,
  ctx: PlatformContext,
  bucket: string,
): Promise<Response> {
  const identity = await caller(c, ctx);
  const body = await readJson(c.req.raw, SignManyBody);
  const visible = await asCaller(ctx.db, identity, c, async (tx) => {
    const r = await tx.query<{ name: string }>(
      'select name from storage.objects where bucket_id = $1 and name = any($2::text[])',
      [bucket, body.paths],
    );
    return new Set(r.rows.map((x) => x.name));
  });
  const entries = await Promise.all(
    body.paths.map(async (path) =>
      visible.has(path)
        ? {
            error: null,
            path,
            signedURL: await signedUrl(ctx, { bucket, key: path }, body.expiresIn),
          }
        : {
            error: 'Either the object does not exist or you do not have access to it',
            path,
            signedURL: null,
          },
    ),
  );
  return c.json(entries);
}

/**
 * `GET /object/sign/...?token=`: opened without credentials; the token is the permission. On
 * `/render/image/sign/...` the token's transformations are applied (never the query's).
 */
export async function getSigned(
  c: Context,
  ctx: PlatformContext,
  t: Target,
  serve: Serve = 'object',
): Promise<Response> {
  const token = c.req.query('token');
  if (!token) return fail(errors.invalidJwt(NO_JWT));
  const verified = await verifyJwt(token, ctx.keyring);
  if (!verified.ok) return fail(errors.invalidJwt(verified.detail));
  if (verified.claims.url !== `${t.bucket}/${t.key}`) fail(errors.invalidSignature());
  const download = downloadParam(c);
  const exp = typeof verified.claims.exp === 'number' ? verified.claims.exp : 0;
  const read = await ctx.db.transaction((tx) => readObject(tx, t.bucket, t.key));
  const claim = verified.claims.transformations;
  const { object, bytes, transformations } =
    serve === 'render'
      ? await renderImage(
          read.object,
          read.bytes,
          transformFromClaim(typeof claim === 'string' ? claim : ''),
          c.req.header('accept') ?? '',
        )
      : { ...read, transformations: '' };
  const expires = new Date(exp * 1000).toUTCString();
  return objectResponse(object, bytes, { download, expires, transformations });
}
