import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerType } from '@hono/node-server';
import { createAppServer, listenApp } from '../../scripts/lib/app-server.ts';
import { precompress } from '../../scripts/lib/precompress.ts';

/** The server of the built PWA (`npm start`), over real HTTP. */
let dist: string;
let server: ServerType;
let url: string;
let icon: Buffer;
/** A script like the build's: long and repetitive enough for both encodings to save bytes. */
const script = Buffer.from(
  Array.from({ length: 400 }, (_, i) => `export const slot${i} = 'Horário ${i}';`).join('\n'),
);
const SCRIPT_PATH = '/assets/index-abc123.js';

type Raw = { status: number; headers: Record<string, string | undefined>; body: Buffer };

/** A request as a browser sends it, without fetch's own decoding: the bytes on the wire. */
function get(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(
            Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join() : v]),
          ),
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'saudeja-dist-'));
  // As long as the real shell (its inline styles and preloads), so compression pays.
  const preloads = Array.from(
    { length: 30 },
    (_, i) => `<link rel="modulepreload" href="/assets/chunk-${i}.js">`,
  );
  await writeFile(
    join(dist, 'index.html'),
    `<!doctype html><title>Saúde Já</title>${preloads.join('\n')}`,
  );
  icon = await readFile('public/favicon.ico');
  await writeFile(join(dist, 'favicon.ico'), icon);
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, SCRIPT_PATH), script);
  await writeFile(join(dist, 'logo.png'), icon);
  await precompress(dist);
  server = await listenApp(createAppServer(dist), 0, '127.0.0.1');
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dist, { recursive: true, force: true });
});

describe('the app server', () => {
  it.each(['/%zz', '/consultas/%E0%A4%A', '/%00', '/a%00b.js'])(
    'answers %s with 400',
    async (path) => {
      const res = await fetch(`${url}${path}`);
      expect(res.status).toBe(400);
    },
  );

  it('still answers deep links of the single-page app with index.html', async () => {
    const res = await fetch(`${url}/paciente/dashboard/consultas`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>Saúde Já</title>');
  });

  it('serves /favicon.ico as an icon, not the app', async () => {
    const res = await fetch(`${url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    expect(Buffer.from(await res.arrayBuffer()).equals(icon)).toBe(true);
  });

  it('answers 404 for a missing file instead of HTML under its name', async () => {
    const res = await fetch(`${url}/assets/index-old.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type') ?? '').not.toContain('text/html');
  });

  it('the committed favicon.ico is an icon file holding a PNG', () => {
    expect([...icon.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    expect(icon.subarray(22, 26).toString('latin1')).toBe('\x89PNG');
  });

  it.each([
    ['br', 'gzip, deflate, br, zstd'],
    ['br', 'br;q=1.0, gzip;q=0.8, *;q=0.1'],
    ['gzip', 'gzip, deflate'],
    ['gzip', 'br;q=0, *'],
    ['gzip', 'GZIP'],
  ])('sends the %s copy of a script to Accept-Encoding: %s', async (coding, accept) => {
    const res = await get(SCRIPT_PATH, { 'accept-encoding': accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.length).toBeLessThan(script.length / 4);
    const decoded = coding === 'br' ? brotliDecompressSync(res.body) : gunzipSync(res.body);
    expect(decoded.equals(script)).toBe(true);
  });

  it.each([undefined, 'identity', 'deflate', 'br;q=0, gzip;q=0', '*;q=0'])(
    'sends the script as it is to Accept-Encoding: %s',
    async (accept) => {
      const res = await get(SCRIPT_PATH, accept === undefined ? {} : { 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['vary']).toBe('Accept-Encoding');
      expect(res.body.equals(script)).toBe(true);
    },
  );

  it('compresses the shell of a deep link and keeps it revalidated', async () => {
    const res = await get('/agendamentos', { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.body).toString()).toContain('<title>Saúde Já</title>');
  });

  it('gives each encoding its own ETag and answers a matching If-None-Match with 304', async () => {
    const br = await get(SCRIPT_PATH, { 'accept-encoding': 'br' });
    const gzip = await get(SCRIPT_PATH, { 'accept-encoding': 'gzip' });
    const plain = await get(SCRIPT_PATH);
    const tags = [br, gzip, plain].map((r) => r.headers['etag']);
    expect(new Set(tags).size).toBe(3);
    for (const tag of tags) expect(tag).toMatch(/^"[^"]+"$/);
    const again = await get(SCRIPT_PATH, {
      'accept-encoding': 'br',
      'if-none-match': br.headers['etag']!,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['etag']).toBe(br.headers['etag']);
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The plain copy's tag does not validate the brotli one: the browser gets the new bytes.
    const other = await get(SCRIPT_PATH, {
      'accept-encoding': 'br',
      'if-none-match': plain.headers['etag']!,
    });
    expect(other.status).toBe(200);
    expect(other.headers['content-encoding']).toBe('br');
  });

  it('serves a file written again under the same name with its new bytes and a new ETag', async () => {
    await writeFile(join(dist, 'manifest.webmanifest'), '{"name":"Saúde Já"}');
    const first = await get('/manifest.webmanifest');
    await writeFile(join(dist, 'manifest.webmanifest'), '{"name":"Saúde Já — nova versão"}');
    const second = await get('/manifest.webmanifest');
    expect(second.body.toString()).toBe('{"name":"Saúde Já — nova versão"}');
    expect(second.headers['etag']).not.toBe(first.headers['etag']);
    const revalidated = await get('/manifest.webmanifest', {
      'if-none-match': first.headers['etag']!,
    });
    expect(revalidated.status).toBe(200);
  });

  it('sends images as they are, without Vary', async () => {
    const res = await get('/logo.png', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['vary']).toBeUndefined();
    expect(res.body.equals(icon)).toBe(true);
  });

  it('answers 404 for a missing script whatever the encoding asked', async () => {
    const res = await get('/assets/index-old.js', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});
