import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerType } from '@hono/node-server';
import { createAppServer, listenApp } from '../../scripts/lib/app-server.ts';

/** The server of the built PWA (`npm start`), over real HTTP. */
let dist: string;
let server: ServerType;
let url: string;
let icon: Buffer;

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'saudeja-dist-'));
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>Saúde Já</title>');
  icon = await readFile('public/favicon.ico');
  await writeFile(join(dist, 'favicon.ico'), icon);
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
});
