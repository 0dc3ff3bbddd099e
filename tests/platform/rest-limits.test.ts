import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

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

/** Resolves once PostgreSQL is running a statement of the sample's `sleep_for`. */
async function sleepRunning(): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query(
        `select 1 from pg_stat_activity where state = 'active' and query like '%sleep_for%' and pid <> pg_backend_pid()`,
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
    const res = await get('posts?select=id,comments(id,posts(id,comments(id)))');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { id: 1, comments: [{ id: 1, posts: { id: 1, comments: [{ id: 1 }] } }] },
    ]);
  });

  it('refuses deeper embeds as a parse error before touching the database', async () => {
    const res = await get('posts?select=id,comments(id,posts(id,comments(id,posts(id))))');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'PGRST100',
      details: 'embedding nested 4 levels deep; at most 3 are allowed (REST_MAX_EMBED_DEPTH)',
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

  // PGlite is one engine in this process's thread: Postgres' timer cannot interrupt it, so the
  // timeout is enforced on PostgreSQL only (README "Limits").
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
      await sleepRunning();
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

describe('the five-deep embed that stalled the database', () => {
  let app: TestPlatform;
  beforeAll(async () => {
    app = await startTestPlatform({ seedFile: 'supabase/seed.sql' });
  }, 60_000);
  afterAll(() => app.stop());

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
