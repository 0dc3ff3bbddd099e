import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

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
});
