import { expect } from 'vitest';
import type { Queryable } from '../../supabase/local/db/index.ts';

/**
 * Sets PostgREST's in-database configuration as a Supabase user does — `pgrst.*` settings of the
 * `authenticator` role, then `NOTIFY pgrst, 'reload config'` — and waits until `applied` says
 * the API answers accordingly (the reload is asynchronous, as PostgREST's). Settings are made
 * for this database only (`in database`), since roles are shared by the test files running at
 * once on one PostgreSQL server; `null` resets a setting.
 */
export async function configurePgrst(
  db: Queryable,
  settings: Record<string, string | null>,
  applied: () => Promise<boolean>,
): Promise<void> {
  for (const [key, value] of Object.entries(settings)) {
    if (!/^[a-z_]+$/.test(key)) throw new Error(`not a setting name: ${key}`);
    const change = value === null ? `reset pgrst.${key}` : `set pgrst.${key} = %L`;
    await db.query(
      `do $$ begin execute format('alter role authenticator in database %I ${change}', current_database()${
        value === null ? '' : `, ${quote(value)}`
      }); end $$`,
    );
  }
  await db.query(`notify pgrst, 'reload config'`);
  await expect.poll(applied, { timeout: 5000 }).toBe(true);
}

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
