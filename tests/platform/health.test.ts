import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../supabase/local/log.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';

describe('platform', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ migrationsDir: 'tests/platform/sample-migrations' });
  });
  afterAll(() => t.stop());

  it('answers health with the database kind and records applied migrations', async () => {
    const res = await fetch(`${t.url}/health`);
    expect(await res.json()).toEqual({
      status: 'ok',
      database: process.env.DATABASE_URL ? 'postgres' : 'pglite',
    });
    const { rows } = await t.platform.ctx.db.query<{ version: string }>(
      'select version from supabase_migrations.schema_migrations',
    );
    expect(rows.map((r) => r.version)).toContain('20260101000000');
  });

  it('answers a CORS preflight for any origin with the requested headers', async () => {
    const res = await fetch(`${t.url}/rest/v1/todos?select=*`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization, apikey,  x-client-info, prefer',
      },
    });
    expect(res.status).toBe(204);
    expect(Object.fromEntries(res.headers)).toMatchObject({
      'access-control-allow-origin': 'http://localhost:5173',
      'access-control-allow-credentials': 'true',
      'access-control-allow-headers': 'authorization,apikey,x-client-info,prefer',
      'access-control-max-age': '86400',
    });
    expect(res.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it.each([
    ['a page', 'http://localhost:5173', 'http://localhost:5173'],
    ['no page (a script)', undefined, '*'],
  ])(
    'lets %s read responses, their errors and the headers the client needs',
    async (_, origin, allowed) => {
      for (const path of ['/rest/v1/todos?select=*', '/rest/v1/no_such_table', '/nowhere']) {
        const res = await fetch(`${t.url}${path}`, {
          headers: { apikey: t.anonKey, ...(origin ? { origin } : {}) },
        });
        expect(res.headers.get('access-control-allow-origin')).toBe(allowed);
        expect(res.headers.get('access-control-allow-credentials')).toBe('true');
        expect(res.headers.get('access-control-expose-headers')).toContain('Content-Range');
      }
    },
  );
});

describe('access log', () => {
  const lines: string[] = [];
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({
      migrationsDir: 'tests/platform/sample-migrations',
      log: createLogger('info', (line) => lines.push(line)),
    });
  });
  afterAll(() => t.stop());

  it('writes one JSON line per request, on every route', async () => {
    const requests: [string, number][] = [
      ['/rest/v1/todos?select=id', 200],
      ['/rest/v1/rpc/no_such_function', 404],
      ['/rest/v1/a/b', 404],
      ['/health', 200],
    ];
    for (const [target, status] of requests) {
      const res = await fetch(`${t.url}${target}`, { headers: { apikey: t.anonKey } });
      expect(res.status).toBe(status);
      await res.arrayBuffer();
    }
    const logged = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e.msg === 'request');
    expect(logged.map(({ method, path, status }) => [method, path, status])).toEqual(
      requests.map(([target, status]) => ['GET', target.split('?')[0], status]),
    );
    for (const entry of logged) {
      expect(entry.level).toBe('info');
      expect(typeof entry.ms).toBe('number');
    }
  });
});
