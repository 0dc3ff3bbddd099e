import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../tests/support/database.ts';
import type { Database } from './db/index.ts';
import { runAs, sqlLiteral } from './request-auth.ts';

describe('request-auth against a real database', () => {
  let db: Database;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ db, dispose } = await freshDatabase());
    await db.exec(`do $$ begin create role authenticated nologin;
      exception when duplicate_object or unique_violation then null; end $$;`);
  });
  afterAll(() => dispose());

  it.each([
    ['plain', 'abc'],
    ['single quotes', "O'Brien''s"],
    ['backslashes', 'C:\\path\\n\\'],
    ['quote after backslash', "\\'; drop table x; --"],
    ['unicode and newlines', 'São Paulo\nação\t✓'],
    ['empty', ''],
  ])('sqlLiteral round-trips %s unchanged', async (_name, value) => {
    const { rows } = await db.query<{ v: string }>(`select ${sqlLiteral(value)} as v`);
    expect(rows[0]?.v).toBe(value);
  });

  it('runAs sets the role and the claims for the transaction only', async () => {
    const claims = {
      sub: '0b7c2f0e-0000-4000-8000-000000000001',
      role: 'authenticated',
      note: "it's",
    };
    const seen = await runAs(
      db,
      { role: 'authenticated', claims },
      { method: 'GET', path: '/x' },
      (tx) =>
        tx.query<{ role: string; claims: string; method: string }>(
          `select current_user as role, current_setting('request.jwt.claims') as claims,
                current_setting('request.method') as method`,
        ),
    );
    expect(seen.rows[0]).toEqual({
      role: 'authenticated',
      claims: JSON.stringify(claims),
      method: 'GET',
    });
    const after = await db.query<{ role: string }>('select current_user as role');
    expect(after.rows[0]?.role).not.toBe('authenticated');
  });
});
