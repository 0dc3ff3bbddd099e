import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configurePgrst } from '../support/pgrst-config.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';

/**
 * PostgREST's configuration as hosted Supabase takes it: `pgrst.*` settings of the
 * `authenticator` role, read at start (the fixture's migration sets them) and again on
 * `NOTIFY pgrst, 'reload config'`, with the platform's `REST_DB_*` variables over them.
 */
let t: TestPlatform;
let api: SupabaseClient;

beforeAll(async () => {
  t = await startTestPlatform({
    migrationsDir: 'tests/platform/postgrest-config-fixture',
    // As REST_DB_PLAN_ENABLED=false would: the variable wins over the role's setting.
    config: { restOverrides: { planEnabled: false } },
  });
  api = t.client();
});

afterAll(async () => {
  await t.stop();
});

const sql = (text: string) => t.platform.ctx.db.query(text);

describe('the authenticator role', () => {
  it('exists as on hosted Supabase: logs in, does not inherit, may become each API role', async () => {
    const { rows } = await sql(
      `select rolcanlogin, rolinherit,
              array(select g.rolname::text from pg_auth_members m join pg_roles g on g.oid = m.roleid
                    where m.member = r.oid order by 1) as member_of
       from pg_roles r where rolname = 'authenticator'`,
    );
    expect(rows).toEqual([
      {
        rolcanlogin: true,
        rolinherit: false,
        member_of: ['anon', 'authenticated', 'service_role'],
      },
    ]);
  });
});

describe('in-database configuration read at start', () => {
  it('turns aggregates on (pgrst.db_aggregates_enabled)', async () => {
    const res = await api.from('items').select('n.sum()');
    expect(res).toMatchObject({ status: 200, data: [{ sum: 150 }] });
  });

  it('caps reads at pgrst.db_max_rows', async () => {
    const res = await api.from('items').select('id', { count: 'exact' });
    expect(res.data).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(res.count).toBe(5);
  });

  it('exposes pgrst.db_schemas, the first the default', async () => {
    expect((await api.schema('extra').from('notes').select('body')).data).toEqual([
      { body: 'nota' },
    ]);
    const other = await api.schema('auth').from('users').select('id');
    expect(other.error).toMatchObject({
      code: 'PGRST106',
      hint: 'Only the following schemas are exposed: public, extra',
    });
  });

  it('sets search_path to the schema, then pgrst.db_extra_search_path', async () => {
    expect((await api.rpc('request_search_path')).data).toBe(
      '"public", "public", "extensions", "extra"',
    );
    expect((await api.rpc('call_helper')).data).toBe('from extra');
    expect((await api.schema('extra').rpc('helper')).data).toBe('from extra');
  });

  it('is overridden by the REST_DB_* variables', async () => {
    const plan = await api.from('items').select('id').explain();
    expect(plan.status).toBe(406);
    expect(plan.error).toMatchObject({ code: 'PGRST107' });
  });
});

describe('NOTIFY pgrst', () => {
  it("applies pgrst.db_tx_end on 'reload config': Prefer tx=rollback is ignored until an override is allowed", async () => {
    const ignored = await t.admin.from('items').insert({ id: 6, n: 60 }).select().rollback();
    expect(ignored.status).toBe(201);
    expect((await t.admin.from('items').select('id').eq('id', 6)).data).toEqual([{ id: 6 }]);

    let probe = 100;
    const rollsBack = async () => {
      probe += 1;
      await t.admin.from('items').insert({ id: probe, n: 0 }).rollback();
      return (await t.admin.from('items').select('id').eq('id', probe)).data?.length === 0;
    };
    await configurePgrst(t.platform.ctx.db, { db_tx_end: 'commit-allow-override' }, rollsBack);
    const rolled = await t.admin.from('items').insert({ id: 7, n: 70 }).select().rollback();
    expect(rolled.data).toEqual([{ id: 7, n: 70 }]);
    expect((await t.admin.from('items').select('id').eq('id', 7)).data).toEqual([]);
    const committed = await t.admin.from('items').insert({ id: 8, n: 80 }).select('id');
    expect(committed.data).toEqual([{ id: 8 }]);

    await configurePgrst(t.platform.ctx.db, { db_tx_end: 'rollback' }, async () => {
      probe += 1;
      await t.admin.from('items').insert({ id: probe, n: 0 });
      return (await t.admin.from('items').select('id').eq('id', probe)).data?.length === 0;
    });
    await configurePgrst(t.platform.ctx.db, { db_tx_end: null }, async () => !(await rollsBack()));
  });

  it('leaves out a setting that does not parse, keeping the others', async () => {
    const rows = async () => (await api.from('items').select('id')).data?.length;
    await configurePgrst(
      t.platform.ctx.db,
      { db_max_rows: 'lots' },
      async () => (await rows()) !== 3,
    );
    expect((await api.from('items').select('n.sum()')).status).toBe(200);
    await configurePgrst(t.platform.ctx.db, { db_max_rows: '3' }, async () => (await rows()) === 3);
  });

  it("reloads the schema cache on 'reload schema'", async () => {
    expect((await api.rpc('changing')).data).toBe(1);
    await t.platform.ctx.db.exec(`drop function public.changing();
      create function public.changing() returns setof integer language sql as $$ values (1), (2) $$`);
    await sql(`notify pgrst, 'reload schema'`);
    const answer = async (): Promise<unknown> => (await api.rpc('changing')).data;
    await expect.poll(answer).toEqual([1, 2]);
  });
});
