import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';

/**
 * The limits that keep one request from monopolising the database: the embedding depth,
 * the response size and the statement timeouts per role (README "Limits").
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
let t: TestPlatform;

beforeAll(async () => {
  t = await startTestPlatform({
    migrationsDir: 'tests/platform/sample-migrations',
    config: { restMaxResponseBytes: 4096, bcryptCost: 4 },
  });
  await t.admin.from('authors').insert({ id: 1, name: 'Ana' });
  await t.admin.from('posts').insert({ id: 1, author_id: 1, title: 'Primeiro' });
  await t.admin.from('comments').insert({ id: 1, post_id: 1, body: 'Oi' });
}, 60_000);
afterAll(() => t.stop());

const get = (path: string, key = t.anonKey) =>
  fetch(`${t.url}/rest/v1/${path}`, { headers: { apikey: key, authorization: `Bearer ${key}` } });

const PAULO = 'a0000000-0000-4000-8000-000000000002';

async function databaseName(p: TestPlatform): Promise<string> {
  const { rows } = await p.platform.ctx.db.query<{ name: string }>(
    'select current_database() as name',
  );
  return rows[0]!.name;
}

/** Resolves once PostgreSQL runs, in database `name`, a statement that mentions `text`. */
async function sleepRunning(text: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query(
        `select 1 from pg_stat_activity
          where state = 'active' and datname = $2 and query like '%' || $1 || '%'
            and pid <> pg_backend_pid()`,
        [text, name],
      );
      if (rows.length) return;
    }
  } finally {
    await client.end();
  }
}

async function setting(key: string): Promise<string> {
  const res = await get('rpc/show_setting?name=statement_timeout', key);
  expect(res.status).toBe(200);
  return (await res.json()) as string;
}

describe('embedding depth', () => {
  it('answers embeds up to the limit', async () => {
    const res = await get('posts?select=id,comments(id,posts(id))');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ id: 1, comments: [{ id: 1, posts: { id: 1 } }] }]);
  });

  it('refuses deeper embeds as a parse error before touching the database', async () => {
    const res = await get('posts?select=id,comments(id,posts(id,comments(id)))');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'PGRST100',
      details: 'embedding nested 3 levels deep; at most 2 are allowed (REST_MAX_EMBED_DEPTH)',
    });
  });
});

describe('response size', () => {
  it('refuses an answer bigger than REST_MAX_RESPONSE_BYTES and answers a smaller one', async () => {
    const big = await get('rpc/small_numbers?up_to=2000');
    expect(big.status).toBe(400);
    expect(await big.json()).toMatchObject({ code: 'PGRST199', message: 'Response is too large' });
    const smaller = await get('rpc/small_numbers?up_to=100');
    expect(smaller.status).toBe(200);
    expect(await smaller.json()).toHaveLength(100);
  });
});

describe('statement timeouts per role', () => {
  it('runs anon requests with 3s and signed-in ones with 8s, as hosted Supabase', async () => {
    const email = 'limites@example.com';
    await t.admin.auth.admin.createUser({
      email,
      password: 'senha-forte-123',
      email_confirm: true,
    });
    const user = t.client();
    const { data } = await user.auth.signInWithPassword({ email, password: 'senha-forte-123' });
    expect(await setting(t.anonKey)).toBe('3s');
    expect(await setting(data.session!.access_token)).toBe('8s');
    expect(['3s', '8s']).not.toContain(await setting(t.serviceRoleKey));
  });

  it.runIf(onPostgres)(
    'cancels a statement over the timeout while other requests keep being answered',
    async () => {
      let slowDone = false;
      const slow = get('rpc/sleep_for?seconds=30').then(async (r) => {
        slowDone = true;
        return { status: r.status, body: (await r.json()) as { code: string } };
      });
      // Sent once the slow one runs: the platform then sends it down another connection (a
      // request arriving in the very same millisecond may be pipelined behind it; README).
      await sleepRunning('sleep_for', await databaseName(t));
      const quick = await get('todos?select=id');
      expect(quick.status).toBe(200);
      expect(slowDone).toBe(false);
      const cancelled = await slow;
      expect(cancelled.status).toBe(500);
      expect(cancelled.body.code).toBe('57014');
    },
    20_000,
  );
});

/**
 * PGlite ignores statement_timeout (its engine never yields); on disk, as `npm start` runs it,
 * the engine's thread is stopped and the database reopened instead (db/pglite-thread.ts).
 */
describe.skipIf(onPostgres)('statement timeouts on PGlite on disk', () => {
  let disk: TestPlatform;
  beforeAll(async () => {
    disk = await startTestPlatform({
      migrationsDir: 'tests/platform/sample-migrations',
      onDisk: true,
    });
  }, 60_000);
  afterAll(() => disk.stop());

  it('cancels a statement over the anon timeout and answers the requests queued behind it', async () => {
    const headers = { apikey: disk.anonKey, authorization: `Bearer ${disk.anonKey}` };
    const slow = fetch(`${disk.url}/rest/v1/rpc/sleep_for?seconds=30`, { headers });
    // Sent once the slow one holds the engine, so it waits behind it rather than beside it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const queued = fetch(`${disk.url}/rest/v1/todos?select=id`, { headers });
    const cancelled = await slow;
    expect(cancelled.status).toBe(500);
    expect(await cancelled.json()).toMatchObject({
      code: '57014',
      message: 'canceling statement due to statement timeout',
    });
    expect((await queued).status).toBe(200);
    const after = await fetch(`${disk.url}/rest/v1/todos?select=id`, { headers });
    expect(after.status).toBe(200);
  }, 60_000);
});

describe('the five-deep embed that stalled the database', () => {
  let app: TestPlatform;
  beforeAll(async () => {
    app = await startTestPlatform({ seedFile: 'supabase/seed.sql' });
  }, 60_000);
  afterAll(() => app.stop());

  /**
   * A doctor may save a 5-minute block for every 5 minutes of the week (2,016 rows). Three
   * levels of medicos ↔ agenda_medico then build millions of rows (80 s of a stalled PGlite
   * when three levels were allowed); two stay bounded by the rows themselves.
   */
  it('keeps embeds over a doctor with thousands of blocks bounded', async () => {
    const db = app.platform.ctx.db;
    await db.query(`delete from public.agenda_medico where medico_id = $1`, [PAULO]);
    await db.query(
      `insert into public.agenda_medico (medico_id, dia_semana, hora_inicio, hora_fim, intervalo_em_minutos)
       select $1, d, make_time(m / 60, m % 60, 0),
              case when m = 1435 then '24:00'::time else make_time((m + 5) / 60, (m + 5) % 60, 0) end, 5
       from generate_series(0, 6) d, generate_series(0, 1435, 5) m`,
      [PAULO],
    );
    const headers = { apikey: app.anonKey, authorization: `Bearer ${app.anonKey}` };
    const [exploding, parallel] = await Promise.all([
      fetch(
        `${app.url}/rest/v1/medicos?select=id,agenda_medico(id,medicos(id,agenda_medico(id)))`,
        {
          headers,
        },
      ),
      fetch(`${app.url}/rest/v1/servicos?select=nome`, { headers }),
    ]);
    expect(exploding.status).toBe(400);
    expect(((await exploding.json()) as { code: string }).code).toBe('PGRST100');
    expect(parallel.status).toBe(200);
    const bounded = await fetch(
      `${app.url}/rest/v1/medicos?select=id,agenda_medico(id,medicos(id))`,
      {
        headers,
      },
    );
    expect(bounded.status).toBe(200);
    const rows = (await bounded.json()) as { agenda_medico: unknown[] }[];
    expect(rows.reduce((n, r) => n + r.agenda_medico.length, 0)).toBeGreaterThan(2016);
  }, 30_000);

  it('is refused while a parallel request is answered', async () => {
    const headers = { apikey: app.anonKey, authorization: `Bearer ${app.anonKey}` };
    const nested =
      'medicos?select=id,agenda_medico(id,medicos(id,agenda_medico(id,medicos(id,agenda_medico(id)))))';
    const [heavy, parallel] = await Promise.all([
      fetch(`${app.url}/rest/v1/${nested}`, { headers }),
      fetch(`${app.url}/rest/v1/servicos?select=nome`, { headers }),
    ]);
    expect(heavy.status).toBe(400);
    expect(await heavy.json()).toMatchObject({ code: 'PGRST100' });
    expect(parallel.status).toBe(200);
    expect(await parallel.json()).toEqual([{ nome: 'Teleconsulta' }]);
  });
});
