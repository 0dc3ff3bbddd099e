import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../supabase/local/jwt.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

type Client = ReturnType<typeof createClient>;

type StorageErr = { status?: number; statusCode?: string; code?: string; message: string };

describe('storage', () => {
  let t: TestPlatform;
  const alice = { id: randomUUID(), token: '', client: undefined as unknown as Client };
  const bob = { id: randomUUID(), token: '', client: undefined as unknown as Client };

  /** An unmodified supabase-js client sending a user's JWT (the `accessToken` option). */
  function userClient(token: string): Client {
    return createClient(t.url, t.anonKey, {
      accessToken: () => Promise.resolve(token),
      realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
    });
  }

  beforeAll(async () => {
    t = await startTestPlatform({ migrationsDir: 'tests/platform/sample-migrations' });
    const now = Math.floor(Date.now() / 1000);
    for (const user of [alice, bob]) {
      user.token = await signJwt(
        { sub: user.id, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + 3600 },
        t.platform.ctx.config.jwtSecret,
      );
      user.client = userClient(user.token);
    }
  });
  afterAll(() => t.stop());

  /** An HTTP request whose path goes on the wire exactly as written. */
  function verbatim(method: string, path: string, headers: Record<string, string>, body: Buffer) {
    return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const url = new URL(t.url);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method,
          path,
          headers: { ...headers, 'content-length': body.length },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(Buffer.concat(chunks).toString()) as unknown,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  const raw = (path: string, init: RequestInit = {}) => fetch(`${t.url}/storage/v1/${path}`, init);
  const asAlice = (extra: Record<string, string> = {}) => ({
    apikey: t.anonKey,
    Authorization: `Bearer ${alice.token}`,
    ...extra,
  });

  describe('uploads', () => {
    it('uploads raw bytes and serves them on the public URL without credentials', async () => {
      const path = `${alice.id}/avatar.png`;
      const { data, error } = await alice.client.storage
        .from('avatars')
        .upload(path, PNG, { contentType: 'image/png' });
      expect(error).toBeNull();
      expect(data).toEqual({ id: data?.id, path, fullPath: `avatars/${path}` });
      expect(data?.id).toMatch(/^[0-9a-f-]{36}$/);

      const url = t.client().storage.from('avatars').getPublicUrl(path).data.publicUrl;
      expect(url).toBe(`${t.url}/storage/v1/object/public/avatars/${path}`);
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('cache-control')).toBe('max-age=3600');
      expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG);

      const download = await fetch(`${url}?download=eu.png`);
      expect(download.headers.get('content-disposition')).toContain('filename=eu.png');
    });

    it('uploads a Blob as multipart with its own type, cache control and metadata', async () => {
      const path = `${alice.id}/blob.webp`;
      const { error } = await alice.client.storage
        .from('avatars')
        .upload(path, new Blob([PNG], { type: 'image/webp' }), {
          cacheControl: '60',
          metadata: { origem: 'câmera' },
        });
      expect(error).toBeNull();
      const res = await fetch(t.client().storage.from('avatars').getPublicUrl(path).data.publicUrl);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('max-age=60');

      const info = await alice.client.storage.from('avatars').info(path);
      expect(info.error).toBeNull();
      expect(info.data).toMatchObject({
        name: path,
        bucketId: 'avatars',
        size: PNG.length,
        contentType: 'image/webp',
        cacheControl: 'max-age=60',
        metadata: { origem: 'câmera' },
      });
      expect((await alice.client.storage.from('avatars').exists(path)).data).toBe(true);
      expect((await alice.client.storage.from('avatars').exists(`${alice.id}/nope.png`)).data).toBe(
        false,
      );
    });

    it('refuses a duplicate without upsert, replaces with upsert and with update()', async () => {
      const bucket = alice.client.storage.from('avatars');
      const path = `${alice.id}/dup.png`;
      expect((await bucket.upload(path, PNG, { contentType: 'image/png' })).error).toBeNull();

      const dup = await bucket.upload(path, PNG, { contentType: 'image/png' });
      expect(dup.error).toMatchObject({
        status: 400,
        statusCode: '409',
        message: 'The resource already exists',
      });
      expect((dup.error as StorageErr).code).toBe('Duplicate');

      const second = Buffer.concat([PNG, Buffer.from([1])]);
      expect(
        (await bucket.upload(path, second, { contentType: 'image/png', upsert: true })).error,
      ).toBeNull();
      const afterUpsert = await bucket.download(path);
      expect(Buffer.from(await afterUpsert.data!.arrayBuffer())).toEqual(second);

      const third = Buffer.concat([PNG, Buffer.from([2, 3])]);
      expect((await bucket.update(path, third, { contentType: 'image/png' })).error).toBeNull();
      const afterUpdate = await bucket.download(path);
      expect(afterUpdate.data!.size).toBe(third.length);

      const missing = await bucket.update(`${alice.id}/never.png`, PNG, {
        contentType: 'image/png',
      });
      expect(missing.error).toMatchObject({ statusCode: '404' });
    });

    it('enforces the bucket mime types and size limit', async () => {
      const text = await alice.client.storage.from('avatars').upload(`${alice.id}/a.txt`, 'hello');
      expect(text.error).toMatchObject({ status: 400, statusCode: '415' });
      expect((text.error as StorageErr).code).toBe('InvalidMimeType');
      expect(text.error?.message).toBe('mime type text/plain;charset=UTF-8 is not supported');

      // '1KB' is 1000 bytes: the service counts units in decimal.
      expect(
        (await t.admin.storage.createBucket('tiny', { public: false, fileSizeLimit: '1KB' })).error,
      ).toBeNull();
      const big = await t.admin.storage.from('tiny').upload('big.bin', Buffer.alloc(1001), {
        contentType: 'application/octet-stream',
      });
      expect(big.error).toMatchObject({
        status: 400,
        statusCode: '413',
        message: 'The object exceeded the maximum allowed size',
      });
      expect((big.error as StorageErr).code).toBe('EntityTooLarge');
      const blob = await t.admin.storage
        .from('tiny')
        .upload('big-blob.bin', new Blob([Buffer.alloc(2048)]));
      expect((blob.error as StorageErr).code).toBe('EntityTooLarge');
      // RLS is checked before the body is read: a refused caller learns nothing about limits.
      const refused = await t.client().storage.from('tiny').upload('anon.bin', Buffer.alloc(4096), {
        contentType: 'application/octet-stream',
      });
      expect((refused.error as StorageErr).code).toBe('AccessDenied');
      const fits = await t.admin.storage.from('tiny').upload('ok.bin', Buffer.alloc(1000), {
        contentType: 'application/octet-stream',
      });
      expect(fits.error).toBeNull();
    });
  });

  describe('row level security', () => {
    it("refuses writing into another user's folder and anonymous writes", async () => {
      const foreign = await alice.client.storage
        .from('avatars')
        .upload(`${bob.id}/x.png`, PNG, { contentType: 'image/png' });
      expect(foreign.error).toMatchObject({ status: 400, statusCode: '403' });
      expect((foreign.error as StorageErr).code).toBe('AccessDenied');
      expect(foreign.error?.message).toMatch(/row-level security/);

      const anon = await t
        .client()
        .storage.from('avatars')
        .upload(`${alice.id}/anon.png`, PNG, { contentType: 'image/png' });
      expect(anon.error).toMatchObject({ statusCode: '403' });

      expect(
        (
          await bob.client.storage
            .from('avatars')
            .upload(`${bob.id}/mine.png`, PNG, { contentType: 'image/png' })
        ).error,
      ).toBeNull();
      const overwrite = await alice.client.storage
        .from('avatars')
        .upload(`${bob.id}/mine.png`, PNG, { contentType: 'image/png', upsert: true });
      expect((overwrite.error as StorageErr).code).toBe('AccessDenied');
      const stillBobs = await fetch(
        t.client().storage.from('avatars').getPublicUrl(`${bob.id}/mine.png`).data.publicUrl,
      );
      expect(stillBobs.status).toBe(200);
    });

    it('serves private objects only to who the SELECT policy allows', async () => {
      const path = `${alice.id}/nota.txt`;
      expect(
        (await alice.client.storage.from('docs').upload(path, 'só para Alice')).error,
      ).toBeNull();

      const mine = await alice.client.storage.from('docs').download(path);
      expect(await mine.data!.text()).toBe('só para Alice');
      expect(mine.data!.type).toBe('text/plain;charset=utf-8');

      for (const other of [bob.client, t.client()]) {
        const denied = await other.storage.from('docs').download(path);
        expect(denied.data).toBeNull();
        expect(denied.error).toMatchObject({ status: 400 });
      }
      const publicRoute = await fetch(`${t.url}/storage/v1/object/public/docs/${path}`);
      expect(publicRoute.status).toBe(400);
      expect(await publicRoute.json()).toEqual({
        statusCode: '404',
        code: 'NoSuchBucket',
        error: 'Bucket not found',
        message: 'Bucket not found',
      });
    });

    it('removes only what the DELETE policy allows and returns the removed rows', async () => {
      const path = `${alice.id}/remove-me.png`;
      await alice.client.storage.from('avatars').upload(path, PNG, { contentType: 'image/png' });

      const byBob = await bob.client.storage.from('avatars').remove([path]);
      expect(byBob).toEqual({ data: [], error: null });

      const byAlice = await alice.client.storage
        .from('avatars')
        .remove([path, `${alice.id}/not-there.png`]);
      expect(byAlice.error).toBeNull();
      expect(byAlice.data).toEqual([
        expect.objectContaining({ name: path, bucket_id: 'avatars', owner_id: alice.id }),
      ]);
      const gone = await fetch(
        t.client().storage.from('avatars').getPublicUrl(path).data.publicUrl,
      );
      expect(await gone.json()).toEqual({
        statusCode: '404',
        code: 'NoSuchKey',
        error: 'not_found',
        message: 'Object not found',
      });
    });
  });

  it('lists one folder level: sub-folders first with null id, then objects with metadata', async () => {
    const docs = alice.client.storage.from('docs');
    for (const name of ['b.txt', 'a.txt', 'pasta/dentro.txt', 'pasta/funda/x.txt', 'Outra/y.txt']) {
      expect((await docs.upload(`${alice.id}/lista/${name}`, name)).error).toBeNull();
    }
    const { data, error } = await docs.list(`${alice.id}/lista`);
    expect(error).toBeNull();
    expect(data!.map((e) => [e.name, e.id === null])).toEqual([
      ['Outra', true],
      ['pasta', true],
      ['a.txt', false],
      ['b.txt', false],
    ]);
    expect(data![2]).toMatchObject({
      metadata: {
        size: 5,
        mimetype: 'text/plain;charset=UTF-8',
        cacheControl: 'max-age=3600',
      },
    });
    expect((data![2]!.metadata as { eTag: string }).eTag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(data![2]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(data![0]).toMatchObject({ metadata: null, created_at: null });

    const page = await docs.list(`${alice.id}/lista`, {
      limit: 2,
      offset: 2,
      sortBy: { column: 'name', order: 'desc' },
    });
    expect(page.data!.map((e) => e.name)).toEqual(['b.txt', 'a.txt']);
    const search = await docs.list(`${alice.id}/lista`, { search: 'a.' });
    expect(search.data!.map((e) => e.name)).toEqual(['a.txt']);
    const nested = await docs.list(`${alice.id}/lista/pasta/`);
    expect(nested.data!.map((e) => e.name)).toEqual(['funda', 'dentro.txt']);

    expect((await bob.client.storage.from('docs').list(`${alice.id}/lista`)).data).toEqual([]);
  });

  describe('signed URLs', () => {
    const path = () => `${alice.id}/assinado.txt`;
    beforeAll(async () => {
      await alice.client.storage.from('docs').upload(path(), 'conteúdo assinado');
    });

    it('signs for who may read and serves the object to anyone holding the URL', async () => {
      const { data, error } = await alice.client.storage.from('docs').createSignedUrl(path(), 60);
      expect(error).toBeNull();
      expect(data!.signedUrl).toMatch(
        new RegExp(`^${t.url}/storage/v1/object/sign/docs/${path()}\\?token=`),
      );
      const res = await fetch(data!.signedUrl);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('conteúdo assinado');

      const many = await alice.client.storage
        .from('docs')
        .createSignedUrls([path(), `${alice.id}/nada.txt`], 60);
      expect(many.data!.map((d) => [d.path, d.error === null, d.signedUrl !== null])).toEqual([
        [path(), true, true],
        [`${alice.id}/nada.txt`, false, false],
      ]);

      const byBob = await bob.client.storage.from('docs').createSignedUrl(path(), 60);
      expect(byBob.error).toMatchObject({ statusCode: '404' });
    });

    it('refuses tampered, expired and mismatched tokens', async () => {
      const { data } = await alice.client.storage.from('docs').createSignedUrl(path(), 60);
      const token = new URL(data!.signedUrl).searchParams.get('token')!;
      const secret = t.platform.ctx.config.jwtSecret;
      const expired = await signJwt({ url: `docs/${path()}`, iat: 1, exp: 2 }, secret);
      const otherPath = await signJwt({ url: `docs/${bob.id}/x.txt`, exp: 4_000_000_000 }, secret);
      const cases: [string, string, string][] = [
        // jose's words, which storage-api passes through.
        [`${token.slice(0, -3)}abc`, 'InvalidJWT', 'signature verification failed'],
        [expired, 'InvalidJWT', '"exp" claim timestamp check failed'],
        ['', 'InvalidJWT', 'Invalid Compact JWS'],
        [otherPath, 'InvalidSignature', 'The url do not match the signature'],
        [t.anonKey, 'InvalidSignature', 'The url do not match the signature'],
      ];
      for (const [bad, code, message] of cases) {
        const res = await fetch(`${t.url}/storage/v1/object/sign/docs/${path()}?token=${bad}`);
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ statusCode: '400', code, error: code, message });
      }
    });
  });

  it('issues signed upload URLs only for writable keys; the token uploads once as its signer', async () => {
    const path = `${alice.id}/assinado-upload.png`;
    const signed = await alice.client.storage.from('avatars').createSignedUploadUrl(path);
    expect(signed.error).toBeNull();
    expect(signed.data!.signedUrl).toContain(
      `/storage/v1/object/upload/sign/avatars/${path}?token=`,
    );

    const anyone = t.client().storage.from('avatars');
    const uploaded = await anyone.uploadToSignedUrl(path, signed.data!.token, PNG, {
      contentType: 'image/png',
    });
    expect(uploaded).toEqual({ data: { path, fullPath: `avatars/${path}` }, error: null });
    const again = await anyone.uploadToSignedUrl(path, signed.data!.token, PNG, {
      contentType: 'image/png',
    });
    expect((again.error as StorageErr).code).toBe('Duplicate');
    const row = await t.platform.ctx.db.query<{ owner_id: string }>(
      'select owner_id from storage.objects where bucket_id = $1 and name = $2',
      ['avatars', path],
    );
    expect(row.rows[0]?.owner_id).toBe(alice.id);

    const foreign = await bob.client.storage
      .from('avatars')
      .createSignedUploadUrl(`${alice.id}/bob.png`);
    expect((foreign.error as StorageErr).code).toBe('AccessDenied');
    const wrongKey = await anyone.uploadToSignedUrl(
      `${alice.id}/outro.png`,
      signed.data!.token,
      PNG,
      {
        contentType: 'image/png',
      },
    );
    expect((wrongKey.error as StorageErr).code).toBe('InvalidSignature');
  });

  it('moves and copies objects through the same policies', async () => {
    const docs = alice.client.storage.from('docs');
    await docs.upload(`${alice.id}/mover.txt`, 'm');
    expect((await docs.move(`${alice.id}/mover.txt`, `${alice.id}/movido.txt`)).error).toBeNull();
    expect(await (await docs.download(`${alice.id}/movido.txt`)).data!.text()).toBe('m');
    expect((await docs.download(`${alice.id}/mover.txt`)).error).toMatchObject({
      statusCode: '404',
    });

    const copied = await docs.copy(`${alice.id}/movido.txt`, `${alice.id}/copia.txt`);
    expect(copied).toEqual({ data: { path: `docs/${alice.id}/copia.txt` }, error: null });
    expect(await (await docs.download(`${alice.id}/copia.txt`)).data!.text()).toBe('m');

    const intoBob = await docs.move(`${alice.id}/copia.txt`, `${bob.id}/roubado.txt`);
    expect((intoBob.error as StorageErr).code).toBe('AccessDenied');
  });

  describe('buckets', () => {
    it('creates, reads, updates, empties and deletes buckets with the service role', async () => {
      const admin = t.admin.storage;
      expect(
        await admin.createBucket('fotos', {
          public: true,
          allowedMimeTypes: ['image/*'],
          fileSizeLimit: 2048,
        }),
      ).toEqual({ data: { name: 'fotos' }, error: null });
      const dup = await admin.createBucket('fotos');
      expect(dup.error).toMatchObject({ statusCode: '409' });

      const got = await admin.getBucket('fotos');
      expect(got.data).toMatchObject({
        id: 'fotos',
        name: 'fotos',
        public: true,
        file_size_limit: 2048,
        allowed_mime_types: ['image/*'],
      });
      const all = await admin.listBuckets();
      expect(all.data!.map((b) => b.id)).toEqual(
        expect.arrayContaining(['avatars', 'docs', 'fotos']),
      );

      expect(
        (await admin.updateBucket('fotos', { public: false, fileSizeLimit: null })).error,
      ).toBeNull();
      expect((await admin.getBucket('fotos')).data).toMatchObject({
        public: false,
        file_size_limit: null,
      });

      await admin.from('fotos').upload('x.png', PNG, { contentType: 'image/png' });
      const notEmpty = await admin.deleteBucket('fotos');
      expect(notEmpty.error).toMatchObject({ statusCode: '409' });
      expect((notEmpty.error as StorageErr).code).toBe('ResourceNotEmpty');
      expect((await admin.emptyBucket('fotos')).data).toEqual({
        message: 'Empty bucket has been queued. Completion may take up to an hour.',
      });
      expect((await admin.deleteBucket('fotos')).data).toEqual({ message: 'Successfully deleted' });
      expect((await admin.getBucket('fotos')).error).toMatchObject({ statusCode: '404' });
    });

    it('lets RLS on storage.buckets refuse other roles', async () => {
      const created = await alice.client.storage.createBucket('meu');
      expect((created.error as StorageErr).code).toBe('AccessDenied');
      expect((await t.client().storage.listBuckets()).data).toEqual([]);
      const upload = await alice.client.storage.from('nao-existe').upload(`${alice.id}/x`, 'x');
      expect(upload.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
    });
  });

  describe('bad input is a 400 in the service format, never a 5xx', () => {
    const tamperedRole = () => {
      const [h, p, s] = alice.token.split('.');
      const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
      claims.role = 'service_role';
      return `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
    };
    const noneAlg = () =>
      `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${alice.token.split('.')[1]}.`;
    const png = { 'content-type': 'image/png' };

    const cases: [string, () => [string, RequestInit], string][] = [
      [
        'a NUL byte',
        () => [
          `object/avatars/${alice.id}/a%00.png`,
          { method: 'POST', headers: asAlice(png), body: PNG },
        ],
        'InvalidKey',
      ],
      [
        'a broken escape',
        () => [
          `object/avatars/${alice.id}/%zz.png`,
          { method: 'POST', headers: asAlice(png), body: PNG },
        ],
        'InvalidKey',
      ],
      [
        'a backslash',
        () => [
          `object/avatars/${alice.id}/a%5Cb.png`,
          { method: 'POST', headers: asAlice(png), body: PNG },
        ],
        'InvalidKey',
      ],
      [
        'an absurd key',
        () => [
          `object/avatars/${alice.id}/${'k'.repeat(1100)}.png`,
          { method: 'POST', headers: asAlice(png), body: PNG },
        ],
        'InvalidKey',
      ],
      [
        'an empty key',
        () => ['object/avatars/', { method: 'POST', headers: asAlice(png), body: PNG }],
        'InvalidKey',
      ],
      [
        'a bad bucket name',
        () => [
          `object/${encodeURIComponent('a\\b')}/x.png`,
          { method: 'POST', headers: asAlice(png), body: PNG },
        ],
        'InvalidBucketName',
      ],
      [
        'a bad x-upsert',
        () => [
          `object/avatars/${alice.id}/h.png`,
          { method: 'POST', headers: asAlice({ ...png, 'x-upsert': 'maybe' }), body: PNG },
        ],
        'InvalidParameter',
      ],
      [
        'a bad content-type',
        () => [
          `object/avatars/${alice.id}/h.png`,
          { method: 'POST', headers: asAlice({ 'content-type': 'not a mime' }), body: PNG },
        ],
        'InvalidParameter',
      ],
      [
        'a bad x-metadata',
        () => [
          `object/avatars/${alice.id}/h.png`,
          { method: 'POST', headers: asAlice({ ...png, 'x-metadata': '!!!' }), body: PNG },
        ],
        'InvalidParameter',
      ],
      [
        'x-metadata that is not an object',
        () => [
          `object/avatars/${alice.id}/h.png`,
          {
            method: 'POST',
            headers: asAlice({ ...png, 'x-metadata': Buffer.from('[1]').toString('base64') }),
            body: PNG,
          },
        ],
        'InvalidParameter',
      ],
      [
        'a broken multipart body',
        () => [
          `object/avatars/${alice.id}/h.png`,
          {
            method: 'POST',
            headers: asAlice({ 'content-type': 'multipart/form-data; boundary=x' }),
            body: 'garbage',
          },
        ],
        'InvalidRequest',
      ],
      [
        'malformed list JSON',
        () => [
          'object/list/docs',
          { method: 'POST', headers: asAlice({ 'content-type': 'application/json' }), body: '{' },
        ],
        'InvalidRequest',
      ],
      [
        'a list without prefix',
        () => ['object/list/docs', { method: 'POST', headers: asAlice(), body: '{"limit":10}' }],
        'InvalidRequest',
      ],
      [
        'a negative list limit',
        () => [
          'object/list/docs',
          { method: 'POST', headers: asAlice(), body: '{"prefix":"","limit":-1}' },
        ],
        'InvalidRequest',
      ],
      [
        'an unknown sort column',
        () => [
          'object/list/docs',
          {
            method: 'POST',
            headers: asAlice(),
            body: '{"prefix":"","sortBy":{"column":"name; drop table x","order":"asc"}}',
          },
        ],
        'InvalidRequest',
      ],
      [
        'remove without an array',
        () => ['object/docs', { method: 'DELETE', headers: asAlice(), body: '{"prefixes":"a"}' }],
        'InvalidRequest',
      ],
      [
        'sign without expiresIn',
        () => [
          `object/sign/docs/${alice.id}/assinado.txt`,
          { method: 'POST', headers: asAlice(), body: '{"expiresIn":"soon"}' },
        ],
        'InvalidRequest',
      ],
      [
        'a bucket with a bad size limit',
        () => [
          'bucket',
          {
            method: 'POST',
            headers: { apikey: t.serviceRoleKey, Authorization: `Bearer ${t.serviceRoleKey}` },
            body: '{"name":"z","file_size_limit":"lots"}',
          },
        ],
        'InvalidRequest',
      ],
      [
        'a tampered JWT',
        () => [
          'object/list/docs',
          {
            method: 'POST',
            headers: { Authorization: `Bearer ${tamperedRole()}` },
            body: '{"prefix":""}',
          },
        ],
        'AccessDenied',
      ],
      [
        'an alg:none JWT',
        () => [
          'object/list/docs',
          {
            method: 'POST',
            headers: { Authorization: `Bearer ${noneAlg()}` },
            body: '{"prefix":""}',
          },
        ],
        'AccessDenied',
      ],
      [
        'a garbage JWT',
        () => ['bucket', { headers: { Authorization: 'Bearer garbage' } }],
        'AccessDenied',
      ],
      ['no credentials at all', () => ['bucket', {}], 'AccessDenied'],
      [
        'a signed URL without token',
        () => [`object/sign/docs/${alice.id}/assinado.txt`, {}],
        'InvalidJWT',
      ],
      ['an unknown route', () => ['object-nope', {}], 'NotFound'],
      [
        'a declared oversized upload',
        () => [
          'object/tiny/declared.bin',
          {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${t.serviceRoleKey}`,
              'content-type': 'application/octet-stream',
            },
            body: Buffer.alloc(4096),
          },
        ],
        'EntityTooLarge',
      ],
      [
        'a streamed oversized upload',
        () => [
          'object/tiny/streamed.bin',
          {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${t.serviceRoleKey}`,
              'content-type': 'application/octet-stream',
            },
            body: new ReadableStream({
              start(controller) {
                for (let i = 0; i < 8; i++) controller.enqueue(new Uint8Array(512));
                controller.close();
              },
            }),
            duplex: 'half',
          } as RequestInit,
        ],
        'EntityTooLarge',
      ],
    ];

    it.each(cases)('%s', async (_label, make, code) => {
      const [path, init] = make();
      const res = await raw(path, init);
      expect(res.status).toBe(400);
      const body = (await res.json()) as Record<string, string>;
      expect(body.code).toBe(code);
      expect(typeof body.message).toBe('string');
      expect(Number(body.statusCode)).toBeGreaterThanOrEqual(400);
      expect(Number(body.statusCode)).toBeLessThan(500);
      expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'statusCode']);
    });

    it('resolves dot segments in the URL like any URL, so they cannot escape RLS', async () => {
      const { status, body } = await verbatim(
        'POST',
        `/storage/v1/object/avatars/${alice.id}/../${bob.id}/x.png`,
        asAlice(png),
        PNG,
      );
      expect(status).toBe(400);
      expect(body).toMatchObject({ statusCode: '403', code: 'AccessDenied' });
    });

    it.each([
      `${alice.id}/../${bob.id}/x.txt`,
      `${alice.id}/./x.txt`,
      `/${alice.id}/x.txt`,
      `${alice.id}//x.txt`,
    ])('refuses the key %s in a JSON body', async (key) => {
      const res = await raw('object/move', {
        method: 'POST',
        headers: asAlice({ 'content-type': 'application/json' }),
        body: JSON.stringify({
          bucketId: 'docs',
          sourceKey: `${alice.id}/movido.txt`,
          destinationKey: key,
        }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ statusCode: '400', code: 'InvalidKey' });
    });

    it('keeps serving after all of that', async () => {
      const res = await raw(`object/public/avatars/${alice.id}/avatar.png`);
      expect(res.status).toBe(200);
      const stored = await t.platform.ctx.db.query<{ n: string }>(
        `select count(*)::text as n from storage.objects where name like '%h.png' or bucket_id = 'tiny' and name <> 'ok.bin'`,
      );
      expect(stored.rows[0]?.n).toBe('0');
    });
  });
});
