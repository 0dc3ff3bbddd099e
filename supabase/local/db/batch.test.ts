import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../../tests/support/database.ts';
import type { Database } from './index.ts';

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
