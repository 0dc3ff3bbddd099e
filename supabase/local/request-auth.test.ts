import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from './db/fresh-database.ts';
import { isPgError, type Database } from './db/index.ts';
import { batchAs, runAs } from './request-auth.ts';

const claims = {
  sub: '0b7c2f0e-0000-4000-8000-000000000001',
  role: 'authenticated',
  note: "it's \\'; select 1; -- São Paulo\n✓",
};
const identity = { role: 'authenticated', claims };
const request = { method: 'GET', path: '/x' };
const writeRequest = { method: 'POST', path: '/x' };
const WHO = `select current_user as role, current_setting('request.jwt.claims') as claims,
  current_setting('request.method') as method`;
const expected = { role: 'authenticated', claims: JSON.stringify(claims), method: 'GET' };

describe('request-auth against a real database', () => {
  let db: Database;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ db, dispose } = await freshDatabase());
    await db.exec(`do $$ begin create role authenticated nologin;
      exception when duplicate_object or unique_violation then null; end $$;
      create table if not exists public.audit (note text primary key);
      grant all on public.audit to authenticated;
      create table if not exists public.owned (owner text, note text);
      alter table public.owned enable row level security;
      create policy owned_by_caller on public.owned for select to authenticated
        using (owner = current_setting('request.jwt.claims', true)::json->>'sub');
      grant select on public.owned to authenticated;
      insert into public.owned values ('a', 'of a'), ('b', 'of b');`);
  });
  afterAll(() => dispose());

  /** Many times over, so every pooled connection is checked. */
  async function roleOutsideRequests(): Promise<string[]> {
    const roles = await Promise.all(
      Array.from({ length: 24 }, () => db.query<{ role: string }>('select current_user as role')),
    );
    return roles.map((r) => r.rows[0]!.role);
  }

  it('runAs sets the role and the claims (values bound, quotes and all) for the transaction only', async () => {
    const seen = await runAs(db, identity, request, (tx) => tx.query(WHO));
    expect(seen.rows[0]).toEqual(expected);
    expect(await roleOutsideRequests()).not.toContain('authenticated');
  });

  it('batchAs runs its statements as the identity and returns their results in order', async () => {
    const [who, sum] = await batchAs(db, identity, request, [
      { sql: WHO },
      { sql: 'select $1::int + $2::int as n', params: [2, 3] },
    ]);
    expect(who?.rows[0]).toEqual(expected);
    expect(sum?.rows[0]).toEqual({ n: 5 });
    expect(await roleOutsideRequests()).not.toContain('authenticated');
  });

  it('batchAs commits what its statements wrote', async () => {
    const [inserted] = await batchAs(db, identity, writeRequest, [
      { sql: 'insert into public.audit values ($1)', params: ['kept'] },
    ]);
    expect(inserted?.rowCount).toBe(1);
    const { rows } = await db.query(`select note from public.audit where note = 'kept'`);
    expect(rows).toHaveLength(1);
  });

  it('a failing statement rolls back the whole batch and rejects with its own error', async () => {
    const failure = await batchAs(db, identity, writeRequest, [
      { sql: 'insert into public.audit values ($1)', params: ['undone'] },
      { sql: 'select 1 / $1::int', params: [0] },
      { sql: 'insert into public.audit values ($1)', params: ['never'] },
    ]).catch((e: unknown) => e);
    expect(isPgError(failure) && failure.code).toBe('22012');
    const { rows } = await db.query(
      `select note from public.audit where note in ('undone', 'never')`,
    );
    expect(rows).toEqual([]);
    // The connections are idle again, outside any transaction and back to their own role.
    expect(await roleOutsideRequests()).not.toContain('authenticated');
    const again = await batchAs(db, identity, request, [{ sql: WHO }]);
    expect(again[0]?.rows[0]).toEqual(expected);
  });

  it('GET and HEAD run read-only, as PostgREST runs them', async () => {
    for (const method of ['GET', 'HEAD']) {
      const failure = await batchAs(db, identity, { method, path: '/x' }, [
        { sql: 'insert into public.audit values ($1)', params: [`read-only ${method}`] },
      ]).catch((e: unknown) => e);
      expect(isPgError(failure) && failure.code).toBe('25006');
    }
    const { rows } = await db.query(`select note from public.audit where note like 'read-only%'`);
    expect(rows).toEqual([]);
  });

  it('a role the settings cannot take runs nothing', async () => {
    const failure = await batchAs(db, { role: 'no_such_role', claims: {} }, request, [
      { sql: 'insert into public.audit values ($1)', params: ['as nobody'] },
    ]).catch((e: unknown) => e);
    expect(isPgError(failure) && failure.code).toBe('22023');
    const { rows } = await db.query(`select note from public.audit where note = 'as nobody'`);
    expect(rows).toEqual([]);
  });

  it('one prepared statement serves every caller under their own row security', async () => {
    const sql = 'select note from public.owned where note like $1 order by note';
    const as = (sub: string) => ({ role: 'authenticated', claims: { sub, role: 'authenticated' } });
    // Past PostgreSQL's five custom plans, so a cached generic plan is in use too.
    for (let round = 0; round < 8; round++) {
      for (const [sub, notes] of [
        ['a', [{ note: 'of a' }]],
        ['b', [{ note: 'of b' }]],
        ['c', []],
      ] as const) {
        const [seen] = await batchAs(db, as(sub), request, [{ sql, params: ['of %'] }]);
        expect(seen?.rows).toEqual(notes);
      }
    }
  });
});
