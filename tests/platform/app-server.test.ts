import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createAppServer } from '../../scripts/lib/app-server.ts';

const dist = mkdtempSync(join(tmpdir(), 'saudeja-dist-'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Saúde Já</title>');
const icon = readFileSync('public/favicon.ico');
writeFileSync(join(dist, 'favicon.ico'), icon);
const app = createAppServer(dist);

afterAll(() => rmSync(dist, { recursive: true, force: true }));

it('serves /favicon.ico as an icon, not the app', async () => {
  const res = await app.request('/favicon.ico');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/x-icon');
  expect(Buffer.from(await res.arrayBuffer()).equals(icon)).toBe(true);
});

it('answers 404 for a missing file instead of HTML under its name', async () => {
  const res = await app.request('/assets/index-old.js');
  expect(res.status).toBe(404);
  expect(res.headers.get('content-type')).not.toContain('text/html');
});

it('still answers deep links of the single-page app with index.html', async () => {
  const res = await app.request('/paciente/dashboard/consultas');
  expect(res.status).toBe(200);
  expect(await res.text()).toContain('<title>Saúde Já</title>');
});

it('the committed favicon.ico is an icon file holding a PNG', () => {
  expect([...icon.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  expect(icon.subarray(22, 26).toString('latin1')).toBe('\x89PNG');
});
