import { readFile, stat, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './index.ts';
import { keptClusterPath } from './pglite-cluster-cache.ts';

/**
 * In-memory PGlite starts from the new cluster the first start kept (pglite-cluster-cache.ts).
 * Other test files share the kept copy, so these tests only ever leave a good one behind.
 */
describe('the kept new cluster of in-memory PGlite', () => {
  it('is kept by a start, and a later database starts from it with none of an earlier one’s objects', async () => {
    const first = await openDatabase({});
    await first.exec('create table left_behind (id int)');
    await first.close();
    expect((await stat(await keptClusterPath())).size).toBeGreaterThan(0);

    const second = await openDatabase({});
    const { rows } = await second.query<{ present: boolean }>(
      `select to_regclass('public.left_behind') is not null as present`,
    );
    expect(rows).toEqual([{ present: false }]);
    await second.exec('create extension if not exists btree_gist');
    await second.close();
  }, 120_000);

  it('is replaced when PGlite cannot start from it, and the database still opens', async () => {
    const path = await keptClusterPath();
    const good = await readFile(path);
    await writeFile(path, good.subarray(0, 1024));

    const db = await openDatabase({});
    expect((await db.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await db.close();
    expect((await stat(path)).size).toBe(good.length);
  }, 120_000);
});
