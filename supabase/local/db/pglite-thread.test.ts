import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPgliteThread, type ReopenCause } from './pglite-thread.ts';
import type { Database, PgError } from './types.ts';

/** A statement that would hold the engine for half a minute. */
const SLOW = { sql: 'select pg_sleep(30)' };

describe('PGlite in its own thread, on disk', () => {
  let dir: string;
  let db: Database;
  const reopened: ReopenCause[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pglite-thread-'));
    db = await openPgliteThread(dir, (cause) => reopened.push(cause));
    await db.exec('create table notes (id int primary key, body text not null)');
  }, 60_000);
  afterAll(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await db.exec(`truncate notes; insert into notes values (1, 'committed before')`);
  });

  it('stops a statement that outlives its timeout, keeps what was committed and runs the work queued behind it', async () => {
    let queued: Promise<unknown> | undefined;
    const slow = db.transaction(
      async (tx) => {
        await tx.query(`insert into notes values (2, 'in the stopped transaction')`);
        // Sent while the transaction holds the engine: it cannot have started when the engine stops.
        queued = db.batch([{ sql: `insert into notes values (3, 'queued behind') returning id` }], {
          timeoutMs: 5000,
        });
        await tx.query(SLOW.sql);
      },
      { timeoutMs: 300 },
    );
    await expect(slow).rejects.toMatchObject({
      code: '57014',
      message: 'canceling statement due to statement timeout',
    });
    await expect(queued).resolves.toMatchObject([{ rows: [{ id: 3 }] }]);
    const { rows } = await db.query('select id, body from notes order by id');
    expect(rows).toEqual([
      { id: 1, body: 'committed before' },
      { id: 3, body: 'queued behind' },
    ]);
  }, 60_000);

  it('answers a timed-out batch as Postgres does, says why it reopened and goes on answering', async () => {
    reopened.length = 0;
    await expect(db.batch([SLOW], { timeoutMs: 300 })).rejects.toMatchObject({ code: '57014' });
    expect(reopened).toEqual(['statement timeout']);
    const [count] = await db.batch([{ sql: 'select count(*)::int as n from notes' }]);
    expect(count!.rows).toEqual([{ n: 1 }]);
  }, 60_000);

  it('refuses the rest of a transaction whose statement timed out, even when the caller goes on', async () => {
    const stopped = db.transaction(
      async (tx) => {
        await tx.query(`insert into notes values (4, 'lost with its engine')`);
        await tx.query(SLOW.sql).catch(() => undefined);
        await tx.query(`insert into notes values (5, 'after the engine was reopened')`);
      },
      { timeoutMs: 300 },
    );
    await expect(stopped).rejects.toMatchObject({ code: '57P01' });
    const { rows } = await db.query<{ id: number }>('select id from notes order by id');
    expect(rows.map((r) => r.id)).toEqual([1]);
  }, 60_000);

  it('keeps listeners: they hear notifications again and are told to catch up', async () => {
    const heard: string[] = [];
    let reconnects = 0;
    const unlisten = await db.listen(
      'news',
      (payload) => heard.push(payload),
      () => reconnects++,
    );
    await expect(db.batch([SLOW], { timeoutMs: 300 })).rejects.toMatchObject({ code: '57014' });
    await expect.poll(() => reconnects, { timeout: 30_000 }).toBe(1);
    await db.query(`select pg_notify('news', 'after')`);
    await expect.poll(() => heard).toEqual(['after']);
    await unlisten();
  }, 60_000);

  it('gives a statement without a timeout all the time it needs', async () => {
    const [slept] = await db.batch([{ sql: 'select pg_sleep(0.5), 1 as done' }]);
    expect(slept!.rows).toMatchObject([{ done: 1 }]);
  });
});

describe('PGlite in its own thread, in memory', () => {
  it('carries errors across with their SQLSTATE, detail and constraint', async () => {
    const db = await openPgliteThread();
    try {
      await db.exec('create table t (id int primary key)');
      await db.query('insert into t values (1)');
      const error = (await db
        .query('insert into t values (1)')
        .catch((e: unknown) => e)) as PgError;
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({
        code: '23505',
        constraint: 't_pkey',
        detail: 'Key (id)=(1) already exists.',
      });
    } finally {
      await db.close();
    }
  }, 60_000);

  it('cannot reopen a database that lives only in memory, so it lets a statement run on', async () => {
    const db = await openPgliteThread();
    try {
      const [slept] = await db.batch([{ sql: 'select pg_sleep(0.6), 1 as done' }], {
        timeoutMs: 100,
      });
      expect(slept!.rows).toMatchObject([{ done: 1 }]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
