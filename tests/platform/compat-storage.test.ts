import { randomUUID } from 'node:crypto';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../supabase/local/jwt.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';

/** A 40×20 PNG, half red and half blue, made with pngjs (not the library under test). */
function redBlue(): Buffer {
  const png = new PNG({ width: 40, height: 20 });
  for (let y = 0; y < 20; y++) {
    for (let x = 0; x < 40; x++) {
      const i = (y * 40 + x) * 4;
      png.data.set(x < 20 ? [255, 0, 0, 255] : [0, 0, 255, 255], i);
    }
  }
  return PNG.sync.write(png);
}

function size(bytes: ArrayBuffer): { width: number; height: number } {
  const png = PNG.sync.read(Buffer.from(bytes));
  return { width: png.width, height: png.height };
}

/**
 * Storage as the service documents and its source behaves (supabase/storage, storage-js), with
 * supabase-js calling wherever it has the method: listV2, decimal size units, object info,
 * bucket JSON, emptying, the JWT error, signed URLs with a string `expiresIn`, and image
 * transformation on public, authenticated and signed URLs.
 */
describe('storage compatibility', () => {
  let t: TestPlatform;
  let owner: string;
  let token: string;
  const image = redBlue();

  beforeAll(async () => {
    t = await startTestPlatform({ migrationsDir: 'tests/platform/sample-migrations' });
    owner = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    token = await signJwt(
      { sub: owner, role: 'authenticated', iat: now, exp: now + 3600 },
      t.platform.ctx.config.jwtSecret,
    );
    const files = ['a.txt', 'b.txt', 'sub/c.txt', 'sub/deep/d.txt', 'z.txt'];
    for (const name of files) {
      const { error } = await t.admin.storage.from('docs').upload(`lista/${name}`, name);
      expect(error).toBeNull();
    }
    const up = await t.admin.storage
      .from('avatars')
      .upload(`${owner}/cores.png`, image, { contentType: 'image/png' });
    expect(up.error).toBeNull();
  });
  afterAll(() => t.stop());

  describe('listV2', () => {
    const OBJECT_FIELDS = [
      'created_at',
      'id',
      'last_accessed_at',
      'metadata',
      'name',
      'updated_at',
    ];

    it('lists every key under a prefix with its full name, a page at a time', async () => {
      const docs = t.admin.storage.from('docs');
      const first = await docs.listV2({ prefix: 'lista/', limit: 3 });
      expect(first.error).toBeNull();
      expect(first.data?.hasNext).toBe(true);
      expect(first.data?.folders).toEqual([]);
      expect(first.data?.objects.map((o) => o.name)).toEqual([
        'lista/a.txt',
        'lista/b.txt',
        'lista/sub/c.txt',
      ]);
      // Without the delimiter an object is the table's row: no `key`.
      expect(Object.keys(first.data?.objects[0] ?? {}).sort()).toEqual(OBJECT_FIELDS);
      expect(first.data?.objects[0]).toMatchObject({ metadata: { size: 5 } });
      const second = await docs.listV2({
        prefix: 'lista/',
        limit: 3,
        cursor: first.data?.nextCursor,
      });
      expect(second.data?.hasNext).toBe(false);
      expect(second.data?.nextCursor).toBeUndefined();
      expect(second.data?.objects.map((o) => o.name)).toEqual([
        'lista/sub/deep/d.txt',
        'lista/z.txt',
      ]);
    });

    it('folds deeper keys into folders with the delimiter, each with its own key', async () => {
      const { data, error } = await t.admin.storage
        .from('docs')
        .listV2({ prefix: 'lista/', with_delimiter: true });
      expect(error).toBeNull();
      expect(data?.folders).toEqual([
        {
          key: 'sub',
          name: 'lista/sub/',
          id: null,
          updated_at: null,
          created_at: null,
          last_accessed_at: null,
          metadata: null,
        },
      ]);
      expect(data?.objects.map((o) => [o.key, o.name])).toEqual([
        ['a.txt', 'lista/a.txt'],
        ['b.txt', 'lista/b.txt'],
        ['z.txt', 'lista/z.txt'],
      ]);
      // A prefix that is not a folder matches names that start with it.
      const partial = await t.admin.storage
        .from('docs')
        .listV2({ prefix: 'lista/s', with_delimiter: true });
      expect(partial.data?.folders.map((f) => [f.key, f.name])).toEqual([['sub', 'lista/sub/']]);
      expect(partial.data?.objects).toEqual([]);
    });

    it('answers storage-js own folder case: a top-level folder at the bucket root', async () => {
      await t.admin.storage.createBucket('lista-raiz');
      await t.admin.storage.from('lista-raiz').upload('testpath/file.jpg', 'x');
      const { data } = await t.admin.storage.from('lista-raiz').listV2({ with_delimiter: true });
      expect(data).toMatchObject({
        hasNext: false,
        folders: [{ key: 'testpath', name: 'testpath/' }],
        objects: [],
      });
    });

    it('pages through folders and objects together in every order, as storage-js pages', async () => {
      await t.admin.storage.createBucket('lista-paginas');
      const bucket = t.admin.storage.from('lista-paginas');
      const suffixes = ['zz', 'bb', 'xx', 'ww', 'cc', 'aa', 'yy', 'oo'];
      for (const suffix of suffixes) {
        expect((await bucket.upload(`testpath/file-${suffix}.jpg`, suffix)).error).toBeNull();
      }
      expect((await bucket.upload('testpath/pasta/dentro.txt', 'x')).error).toBeNull();
      // Creation times are set, not waited for: the files one second apart in upload order,
      // the folder's only object between the fourth and the fifth.
      await t.platform.ctx.db.query(
        `update storage.objects
            set created_at = timestamptz '2026-01-01T00:00:00Z' + case
                  when name like 'testpath/file-%'
                  then array_position($1::text[], substr(name, 15, 2)) * interval '1 second'
                  else interval '4.5 seconds' end
          where bucket_id = 'lista-paginas'`,
        [suffixes],
      );
      const byName = [...[...suffixes].sort(), 'pasta/'];
      const byCreation = [...suffixes.slice(0, 4), 'pasta/', ...suffixes.slice(4)];
      const cases: {
        expected: readonly string[];
        sortBy?: { column: 'name' | 'created_at'; order: 'asc' | 'desc' };
      }[] = [
        { expected: byName },
        { expected: [...byName].reverse(), sortBy: { column: 'name', order: 'desc' } },
        { expected: byCreation, sortBy: { column: 'created_at', order: 'asc' } },
        { expected: [...byCreation].reverse(), sortBy: { column: 'created_at', order: 'desc' } },
      ];
      const label = (name: string) => (name.endsWith('/') ? 'pasta/' : name.slice(-6, -4));
      for (const { expected, sortBy } of cases) {
        let cursor: string | undefined;
        for (let page = 0; page < 5; page++) {
          const { data, error } = await bucket.listV2({
            prefix: 'testpath/',
            with_delimiter: true,
            limit: 2,
            ...(cursor ? { cursor } : {}),
            ...(sortBy ? { sortBy } : {}),
          });
          expect(error).toBeNull();
          const chunk = expected.slice(page * 2, page * 2 + 2);
          expect(data?.folders.map((f) => label(f.name))).toEqual(
            chunk.filter((e) => e === 'pasta/'),
          );
          expect(data?.objects.map((o) => label(o.name))).toEqual(
            chunk.filter((e) => e !== 'pasta/'),
          );
          expect(data?.hasNext).toBe(page < 4);
          cursor = data?.nextCursor;
        }
        expect(cursor).toBeUndefined();
      }
    });

    it('refuses a cursor it did not make', async () => {
      const { error } = await t.admin.storage
        .from('docs')
        .listV2({ prefix: 'lista/', cursor: 'bm90IGEgY3Vyc29y' });
      expect(error).toMatchObject({
        statusCode: '400',
        message: 'Invalid Parameter continuation token',
      });
    });

    it('lists only what RLS lets the caller read', async () => {
      const anon = await t.client().storage.from('docs').listV2({ prefix: 'lista/' });
      expect(anon.data).toMatchObject({ hasNext: false, folders: [], objects: [] });
    });
  });

  it('counts size-limit units in decimal, as the service does', async () => {
    const admin = t.admin.storage;
    const created = await admin.createBucket('limite', { public: false, fileSizeLimit: '20mb' });
    expect(created.error).toBeNull();
    expect((await admin.getBucket('limite')).data?.file_size_limit).toBe(20_000_000);
    await admin.updateBucket('limite', { public: false, fileSizeLimit: '1.5KB' });
    expect((await admin.getBucket('limite')).data?.file_size_limit).toBe(1500);
    const tooBig = await admin.from('limite').upload('x.bin', Buffer.alloc(1501));
    expect(tooBig.error).toMatchObject({ statusCode: '413' });
    expect((await admin.from('limite').upload('y.bin', Buffer.alloc(1500))).error).toBeNull();
    const bad = await admin.createBucket('sem-unidade', { public: false, fileSizeLimit: '20 MB' });
    expect(bad.error?.message).toBe('Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B');
  });

  it('answers object info with metadata {} when none was given', async () => {
    const { data, error } = await t.admin.storage.from('docs').info('lista/a.txt');
    expect(error).toBeNull();
    expect(data?.metadata).toEqual({});
  });

  it('answers a bucket as storage-api does: the list with its type, one bucket without', async () => {
    const columns = [
      'allowed_mime_types',
      'created_at',
      'file_size_limit',
      'id',
      'name',
      'owner',
      'public',
      'updated_at',
    ];
    const { data } = await t.admin.storage.listBuckets();
    const listed = data?.find((b) => b.id === 'docs');
    expect(Object.keys(listed ?? {}).sort()).toEqual([...columns, 'type'].sort());
    expect(listed?.type).toBe('STANDARD');
    // storage-js's own snapshot of getBucket: the columns, owner '' when nobody owns it.
    const one = await t.admin.storage.getBucket('docs');
    expect(Object.keys(one.data ?? {}).sort()).toEqual(columns);
    expect(one.data).toMatchObject({ id: 'docs', name: 'docs', owner: '', public: false });
    // Python clients before the type existed get the list without it.
    const old = await fetch(`${t.url}/storage/v1/bucket`, {
      headers: {
        apikey: t.serviceRoleKey,
        Authorization: `Bearer ${t.serviceRoleKey}`,
        'x-client-info': 'supabase-py/2.17.0',
      },
    });
    const oldList = (await old.json()) as Record<string, unknown>[];
    expect(Object.keys(oldList.find((b) => b.id === 'docs') ?? {}).sort()).toEqual(columns);
  });

  it('queues emptying', async () => {
    await t.admin.storage.createBucket('esvaziar');
    await t.admin.storage.from('esvaziar').upload('x.txt', 'x');
    expect((await t.admin.storage.emptyBucket('esvaziar')).data).toEqual({
      message: 'Empty bucket has been queued. Completion may take up to an hour.',
    });
  });

  it('refuses a request without a valid JWT as AccessDenied, in the words of jose, as storage-api does', async () => {
    // HTTP 400 with the error's own status in the body: storage-api answers every
    // non-500 StorageBackendError that way. storage-js's own test expects 'Invalid Compact JWS'
    // from a client made without any header.
    for (const path of ['bucket', 'object/list/docs']) {
      const res = await fetch(`${t.url}/storage/v1/${path}`, {
        method: path === 'bucket' ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        body: path === 'bucket' ? undefined : '{"prefix":""}',
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        statusCode: '403',
        code: 'AccessDenied',
        error: 'Unauthorized',
        message: 'Invalid Compact JWS',
      });
    }
    const now = Math.floor(Date.now() / 1000);
    const secret = t.platform.ctx.config.jwtSecret;
    const expired = await signJwt({ role: 'anon', iat: now - 20, exp: now - 10 }, secret);
    const cases: [string, string][] = [
      ['not-a-jwt', 'Invalid Compact JWS'],
      ['a.b.c', 'JWS Protected Header is invalid'],
      [`${token.slice(0, -3)}abc`, 'signature verification failed'],
      [expired, '"exp" claim timestamp check failed'],
    ];
    for (const [bearer, message] of cases) {
      const res = await fetch(`${t.url}/storage/v1/bucket`, {
        headers: { Authorization: `Bearer ${bearer}` },
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ statusCode: '403', code: 'AccessDenied', message });
    }
  });

  it('signs a URL whose expiresIn arrives as a string, as the Python client sends it', async () => {
    const res = await fetch(`${t.url}/storage/v1/object/sign/docs/lista/a.txt`, {
      method: 'POST',
      headers: {
        apikey: t.serviceRoleKey,
        Authorization: `Bearer ${t.serviceRoleKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ expiresIn: '60' }),
    });
    expect(res.status).toBe(200);
    const { signedURL } = (await res.json()) as { signedURL: string };
    expect(await (await fetch(`${t.url}/storage/v1${signedURL}`)).text()).toBe('a.txt');
  });

  describe('image transformation', () => {
    const path = () => `${owner}/cores.png`;

    it('resizes a public image, keeping its format with format=origin', async () => {
      const url = t
        .client()
        .storage.from('avatars')
        .getPublicUrl(path(), {
          transform: { width: 20, height: 20, resize: 'contain', format: 'origin' },
        }).data.publicUrl;
      expect(url).toContain('/render/image/public/');
      const res = await fetch(url);
      expect(res.headers.get('content-type')).toBe('image/png');
      // contain fits inside the box: 40×20 → 20×10.
      expect(size(await res.arrayBuffer())).toEqual({ width: 20, height: 10 });
    });

    it('crops to fill by default (cover) and stretches with fill', async () => {
      const base = `${t.url}/storage/v1/render/image/public/avatars/${path()}`;
      const cover = await fetch(`${base}?width=10&height=10&format=origin`);
      expect(size(await cover.arrayBuffer())).toEqual({ width: 10, height: 10 });
      const fill = await fetch(`${base}?width=8&height=30&resize=fill&format=origin`);
      expect(size(await fill.arrayBuffer())).toEqual({ width: 8, height: 30 });
    });

    it('answers WebP to a client that accepts it, and refuses bad options', async () => {
      const base = `${t.url}/storage/v1/render/image/public/avatars/${path()}`;
      const webp = await fetch(`${base}?width=10`, { headers: { accept: 'image/webp,*/*' } });
      expect(webp.headers.get('content-type')).toBe('image/webp');
      const bytes = Buffer.from(await webp.arrayBuffer());
      expect(bytes.subarray(8, 12).toString()).toBe('WEBP');
      const bad = await fetch(`${base}?width=-3`);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ statusCode: '400' });
    });

    it('transforms an authenticated download through RLS', async () => {
      const res = await fetch(
        `${t.url}/storage/v1/render/image/authenticated/avatars/${path()}?width=4&format=origin`,
        { headers: { apikey: t.anonKey, Authorization: `Bearer ${token}` } },
      );
      expect(res.status).toBe(200);
      expect(size(await res.arrayBuffer()).width).toBe(4);
    });

    it('signs a URL with a transform: the token carries it, the query cannot change it', async () => {
      const { data, error } = await t.admin.storage
        .from('avatars')
        .createSignedUrl(path(), 60, { transform: { width: 10, height: 5, format: 'origin' } });
      expect(error).toBeNull();
      expect(data?.signedUrl).toContain('/render/image/sign/avatars/');
      const res = await fetch(data?.signedUrl ?? '');
      expect(size(await res.arrayBuffer())).toEqual({ width: 10, height: 5 });
      const tampered = await fetch(`${data?.signedUrl ?? ''}&width=30`);
      expect(size(await tampered.arrayBuffer())).toEqual({ width: 10, height: 5 });
    });

    it("refuses to transform what is not an image, in storage-api's words", async () => {
      const res = await fetch(
        `${t.url}/storage/v1/render/image/authenticated/docs/lista/a.txt?width=10`,
        { headers: { apikey: t.serviceRoleKey, Authorization: `Bearer ${t.serviceRoleKey}` } },
      );
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        statusCode: '400',
        code: 'InvalidRequest',
        error: 'InvalidRequest',
        message: 'The source image is invalid or unsupported for rendering',
      });
    });

    it('reads the source format from the bytes, whatever type the upload declared', async () => {
      // supabase-js sends a Buffer without contentType as text/plain, as storage-js's own
      // transformation tests upload their JPEG; imgproxy reads the bytes.
      const docs = t.admin.storage.from('docs');
      expect((await docs.upload('imagens/sem-tipo.png', image)).error).toBeNull();
      const { data, error } = await docs.download('imagens/sem-tipo.png', {
        transform: { width: 20, height: 20 },
      });
      expect(error).toBeNull();
      expect(data?.type).toBe('image/png');
      expect(size(await data!.arrayBuffer())).toEqual({ width: 20, height: 20 });
    });

    it("echoes the transformations in imgproxy's words on a signed render URL", async () => {
      const { data } = await t.admin.storage
        .from('avatars')
        .createSignedUrl(path(), 60, { transform: { width: 20, height: 20, quality: 60 } });
      const res = await fetch(data?.signedUrl ?? '');
      expect(res.status).toBe(200);
      expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0);
      expect(res.headers.get('x-transformations')).toBe(
        'height:20,width:20,resizing_type:fill,quality:60',
      );
    });

    it('answers WebP when asked with format=webp, whatever the client accepts', async () => {
      const res = await fetch(
        `${t.url}/storage/v1/render/image/public/avatars/${path()}?width=10&resize=contain&format=webp`,
      );
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('x-transformations')).toBe('width:10,resizing_type:fit,format:webp');
    });
  });
});
