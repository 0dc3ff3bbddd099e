import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from './fresh-database.ts';
import type { Database } from './index.ts';
import { MAX_PREPARED_PER_CONNECTION } from './prepared.ts';

/**
 * `batch` binds values without asking the server for their types first (unlike PGlite's own
 * `query`), so each kind of value must arrive exactly as `query` delivers it.
 */
describe('Database.batch binds values as query does', () => {
  let db: Database;
  let dispose: () => Promise<void>;
  beforeAll(async () => ({ db, dispose } = await freshDatabase()));
  afterAll(() => dispose());

  it.each<[string, string, unknown]>([
    ['text with quotes and backslashes', 'text', `O'Brien \\ "x"`],
    ['unicode and newlines', 'text', 'São Paulo\nação ✓'],
    ['empty string', 'text', ''],
    ['null', 'text', null],
    ['integer', 'int', 42],
    ['negative float', 'float8', -1.5],
    ['big integer as text', 'int8', 9007199254740993n],
    ['boolean', 'bool', false],
    ['json object', 'jsonb', { a: [1, 'two', null], "quote'": 'x' }],
    ['text array with tricky items', 'text[]', ['a,b', 'c"d', 'e\\f', '{g}', null, '']],
    [
      'nested int array',
      'int[]',
      [
        [1, 2],
        [3, 4],
      ],
    ],
    ['bytes', 'bytea', new Uint8Array([0, 1, 254, 255])],
  ])('%s', async (_name, type, value) => {
    const sql = `select ($1::${type})::text as v`;
    const viaQuery = await db.query<{ v: string | null }>(sql, [value]);
    const [viaBatch] = await db.batch([{ sql, params: [value] }]);
    expect(viaBatch?.rows).toEqual(viaQuery.rows);
  });

  it('sends statement texts with non-ASCII characters intact', async () => {
    const [r] = await db.batch([
      { sql: `select 'São Paulo ✓' as "cidade ✓", $1::text as v`, params: ['ação'] },
    ]);
    expect(r?.rows).toEqual([{ 'cidade ✓': 'São Paulo ✓', v: 'ação' }]);
  });

  it('returns one result per statement, rows and counts included', async () => {
    await db.exec('create table if not exists batch_t (n int)');
    const results = await db.batch([
      { sql: 'insert into batch_t select generate_series(1, $1::int)', params: [3] },
      { sql: 'update batch_t set n = n + 10 where n > $1', params: [1] },
      { sql: 'select n from batch_t order by n' },
    ]);
    expect(results.map((r) => r.rowCount).slice(0, 2)).toEqual([3, 2]);
    expect(results[2]?.rows).toEqual([{ n: 1 }, { n: 12 }, { n: 13 }]);
  });
});

describe('Database.batch prepared statements', () => {
  let db: Database;
  let dispose: () => Promise<void>;
  beforeAll(async () => ({ db, dispose } = await freshDatabase()));
  afterAll(() => dispose());

  const twice = { sql: 'select $1::int * 2 as n' };
  const preparedHere = { sql: 'select count(*)::int as n from pg_prepared_statements' };

  it('are reused across batches and within one', async () => {
    for (const n of [1, 2, 3]) {
      const results = await db.batch([
        { ...twice, params: [n] },
        { ...twice, params: [n + 10] },
      ]);
      expect(results.map((r) => r.rows)).toEqual([[{ n: 2 * n }], [{ n: 2 * (n + 10) }]]);
    }
  });

  it('stay usable after a batch failed while binding one', async () => {
    const checked = { sql: 'select $1::int + 1 as n' };
    // Parse succeeds, Bind fails: the statement exists on the server but never completed.
    await expect(db.batch([{ ...checked, params: ['not a number'] }])).rejects.toMatchObject({
      code: '22P02',
    });
    const [after] = await db.batch([{ ...checked, params: [41] }]);
    expect(after?.rows).toEqual([{ n: 42 }]);
  });

  it('follow a migration that changed the columns they return', async () => {
    await db.exec('create table if not exists plan_t (a int); insert into plan_t values (1)');
    const select = { sql: 'select * from plan_t' };
    // Past PostgreSQL's five custom plans, so the plan is cached for good.
    for (let i = 0; i < 7; i++) {
      expect((await db.batch([select], { readOnly: true }))[0]?.rows).toEqual([{ a: 1 }]);
    }
    await db.exec('alter table plan_t add column b text default $$x$$');
    // Sent together, so they share a connection or an engine call and go stale together.
    const after = await Promise.all([1, 2, 3].map(() => db.batch([select], { readOnly: true })));
    expect(after.map(([r]) => r?.rows)).toEqual([1, 2, 3].map(() => [{ a: 1, b: 'x' }]));
    expect((await db.batch([select]))[0]?.rows).toEqual([{ a: 1, b: 'x' }]);
  });

  it('stay within their bound per connection however many texts arrive', async () => {
    // One batch at a time: the pool hands the same idle connection back (PGlite has one).
    const texts = MAX_PREPARED_PER_CONNECTION + 40;
    for (let i = 0; i < texts; i++) {
      const [r] = await db.batch([{ sql: `select $1::int + ${i} as n`, params: [1] }]);
      expect(r?.rows).toEqual([{ n: 1 + i }]);
    }
    const [count] = await db.batch([preparedHere]);
    expect((count?.rows[0] as { n: number }).n).toBeLessThanOrEqual(
      MAX_PREPARED_PER_CONNECTION + 1,
    );
    // The evicted first texts are prepared again when they come back.
    const [first] = await db.batch([{ sql: 'select $1::int + 0 as n', params: [7] }]);
    expect(first?.rows).toEqual([{ n: 7 }]);
  });

  it('run in one transaction: a local setting reaches the later statements only', async () => {
    const [, seen] = await db.batch([
      { sql: `select set_config('app.batch_probe', $1, true)`, params: ['inside'] },
      { sql: `select current_setting('app.batch_probe', true) as v` },
    ]);
    expect(seen?.rows).toEqual([{ v: 'inside' }]);
    const outside = await db.query<{ v: string | null }>(
      `select nullif(current_setting('app.batch_probe', true), '') as v`,
    );
    expect(outside.rows).toEqual([{ v: null }]);
  });
});
