import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerType } from '@hono/node-server';
import { createAppServer, listenApp } from '../../scripts/lib/app-server.ts';

/** The server of the built PWA (`npm start`) answers malformed paths with 4xx, not 500. */
let dist: string;
let server: ServerType;
let url: string;

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'saudeja-dist-'));
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>Saúde Já</title>');
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

  it('still answers deep links with the app shell', async () => {
    const res = await fetch(`${url}/consultas/123`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Saúde Já');
  });
});
