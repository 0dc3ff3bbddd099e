import { Hono, type Context } from 'hono';
import type { PlatformContext } from '../context.ts';
import {
  createBucket,
  deleteBucket,
  emptyBucket,
  getBucket,
  listBuckets,
  updateBucket,
} from './buckets.ts';
import { errorResponse, errors, fail, toStorageError } from './errors.ts';
import { bucketName, decode, splitBucketAndKey } from './names.ts';
import { getAuthenticated, getInfo, getPublic, listObjects } from './object-read.ts';
import { listObjectsV2 } from './object-list-v2.ts';
import { getSigned, signMany, signOne } from './object-sign.ts';
import { signUpload, uploadSigned } from './signed-upload.ts';
import {
  copyObject,
  moveObject,
  removeObject,
  removeObjects,
  upsertHeader,
  writeObject,
} from './object-write.ts';

type Handler = (c: Context) => Promise<Response>;

/**
 * The part of the raw (still percent-encoded) path after `marker`: Hono's own path is partly
 * decoded, which would turn an encoded `/` inside a key into a separator.
 */
function rest(c: Context, marker: string): string {
  const path = new URL(c.req.url).pathname;
  const at = path.indexOf(marker);
  return at < 0 ? '' : path.slice(at + marker.length);
}

function target(c: Context, marker: string) {
  return splitBucketAndKey(rest(c, marker));
}

/** A single path segment: a bucket id from `/bucket/:id` or `/object/list/:bucket`. */
function bucketParam(c: Context, marker: string, suffix = ''): string {
  const full = rest(c, marker).replace(/\/$/, '');
  const raw = suffix && full.endsWith(suffix) ? full.slice(0, -suffix.length) : full;
  if (raw.includes('/')) fail(errors.invalidBucketName());
  return bucketName(decode(raw, () => fail(errors.invalidBucketName())));
}

/**
 * Supabase Storage (`/storage/v1`), the subset supabase-js uses (docs/platform-wire.md §5). Every
 * object row is read and written as the caller so RLS on storage.objects decides; failures
 * are answered in the service's own error shape, never as a stack.
 */
export function createStorageApp(ctx: PlatformContext): Hono {
  const app = new Hono();
  const handle =
    (fn: Handler): Handler =>
    async (c) => {
      try {
        return await fn(c);
      } catch (e) {
        return errorResponse(c, toStorageError(e, ctx.log));
      }
    };

  app.get(
    '/bucket',
    handle((c) => listBuckets(c, ctx)),
  );
  app.post(
    '/bucket',
    handle((c) => createBucket(c, ctx)),
  );
  app.post(
    '/bucket/:id/empty',
    handle((c) => emptyBucket(c, ctx, bucketParam(c, '/bucket/', '/empty'))),
  );
  app.get(
    '/bucket/:id',
    handle((c) => getBucket(c, ctx, bucketParam(c, '/bucket/'))),
  );
  app.put(
    '/bucket/:id',
    handle((c) => updateBucket(c, ctx, bucketParam(c, '/bucket/'))),
  );
  app.delete(
    '/bucket/:id',
    handle((c) => deleteBucket(c, ctx, bucketParam(c, '/bucket/'))),
  );

  app.post(
    '/object/list-v2/:bucket',
    handle((c) => listObjectsV2(c, ctx, bucketParam(c, '/object/list-v2/'))),
  );
  app.post(
    '/object/list/:bucket',
    handle((c) => listObjects(c, ctx, bucketParam(c, '/object/list/'))),
  );
  app.post(
    '/object/move',
    handle((c) => moveObject(c, ctx)),
  );
  app.post(
    '/object/copy',
    handle((c) => copyObject(c, ctx)),
  );
  app.post(
    '/object/upload/sign/*',
    handle((c) => signUpload(c, ctx, target(c, '/object/upload/sign/'))),
  );
  app.put(
    '/object/upload/sign/*',
    handle((c) => uploadSigned(c, ctx, target(c, '/object/upload/sign/'))),
  );
  app.post(
    '/object/sign/*',
    handle((c) =>
      rest(c, '/object/sign/').includes('/')
        ? signOne(c, ctx, target(c, '/object/sign/'))
        : signMany(c, ctx, bucketParam(c, '/object/sign/')),
    ),
  );
  app.get(
    '/object/sign/*',
    handle((c) => getSigned(c, ctx, target(c, '/object/sign/'))),
  );
  app.get(
    '/render/image/public/*',
    handle((c) => getPublic(c, ctx, target(c, '/render/image/public/'), 'render')),
  );
  app.get(
    '/render/image/authenticated/*',
    handle((c) => getAuthenticated(c, ctx, target(c, '/render/image/authenticated/'), 'render')),
  );
  app.get(
    '/render/image/sign/*',
    handle((c) => getSigned(c, ctx, target(c, '/render/image/sign/'), 'render')),
  );
  app.get(
    '/object/public/*',
    handle((c) => getPublic(c, ctx, target(c, '/object/public/'))),
  );
  app.get(
    '/object/authenticated/*',
    handle((c) => getAuthenticated(c, ctx, target(c, '/object/authenticated/'))),
  );
  app.get(
    '/object/info/public/*',
    handle((c) => getInfo(c, ctx, target(c, '/object/info/public/'), 'public')),
  );
  app.get(
    '/object/info/authenticated/*',
    handle((c) => getInfo(c, ctx, target(c, '/object/info/authenticated/'), 'authenticated')),
  );
  app.get(
    '/object/info/*',
    handle((c) => getInfo(c, ctx, target(c, '/object/info/'), 'authenticated')),
  );

  app.post(
    '/object/*',
    handle((c) =>
      writeObject(
        c,
        ctx,
        target(c, '/object/'),
        upsertHeader(c.req.header('x-upsert')) ? 'upsert' : 'create',
      ),
    ),
  );
  app.put(
    '/object/*',
    handle((c) => writeObject(c, ctx, target(c, '/object/'), 'update')),
  );
  app.get(
    '/object/*',
    handle((c) => getAuthenticated(c, ctx, target(c, '/object/'))),
  );
  app.delete(
    '/object/*',
    handle((c) =>
      rest(c, '/object/').includes('/')
        ? removeObject(c, ctx, target(c, '/object/'))
        : removeObjects(c, ctx, bucketParam(c, '/object/')),
    ),
  );

  app.all(
    '*',
    handle(() => fail(errors.notFound())),
  );
  return app;
}
