import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../supabase/local/db/fresh-database.ts';
import type { Database } from '../../supabase/local/db/index.ts';

/** PGlite runs in-process and cannot lose its LISTEN connection; PostgreSQL can. */
describe.runIf(process.env.DATABASE_URL)('PostgreSQL LISTEN connection', () => {
  let db: Database;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ db, dispose } = await freshDatabase());
  });
  afterAll(() => dispose());

  it('is re-established after the server drops it, re-listens, and reports the reconnect', async () => {
    const received: string[] = [];
    let reconnected!: () => void;
    const reconnect = new Promise<void>((resolve) => (reconnected = resolve));
    await db.listen('listen_test', (payload) => received.push(payload), reconnected);

    await db.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`,
    );
    await reconnect;
    await db.query(`select pg_notify('listen_test', 'after reconnect')`);
    await expect.poll(() => received).toEqual(['after reconnect']);
  });
});
