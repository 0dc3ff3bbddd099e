import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase } from './fresh-database.ts';
import { PACK_DEPTH, PACK_MS, READ_LANES, STALL_MS } from './batch-lanes.ts';
import type { Database } from './index.ts';

/**
 * Batches sent together share connections on PostgreSQL (pipelined, batch-lanes.ts: reads on
 * lanes of their own, writes on others); PGlite queues them all on its one connection. Whichever
 * way, each must stay its own transaction.
 */
describe('Database.batch under concurrency', () => {
  let db: Database;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ db, dispose } = await freshDatabase());
    await db.exec('create table lanes_t (n int primary key)');
  });
  afterAll(() => dispose());

  it.each([
    ['writing', false],
    ['read-only', true],
  ])('keeps each %s batch its own transaction', async (_kind, readOnly) => {
    const settled = await Promise.allSettled(
      Array.from({ length: 40 }, (_, n) =>
        db.batch(
          [
            // Every third batch sets nothing: it must not see a neighbour's setting.
            ...(n % 3
              ? [{ sql: `select set_config('app.lane_probe', $1, true)`, params: [`${n}`] }]
              : []),
            readOnly
              ? { sql: 'select $1::int as n', params: [n] }
              : { sql: 'insert into lanes_t values ($1)', params: [n] },
            { sql: `select nullif(current_setting('app.lane_probe', true), '') as seen` },
            // Odd batches fail last: their insert must be rolled back with them alone.
            { sql: n % 2 ? 'select 1 / 0' : 'select 1' },
          ],
          { readOnly },
        ),
      ),
    );
    settled.forEach((outcome, n) => {
      if (n % 2) {
        expect(outcome).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
        return;
      }
      expect(outcome.status).toBe('fulfilled');
      const results = (outcome as PromiseFulfilledResult<{ rows: unknown[] }[]>).value;
      expect(results.at(-2)?.rows).toEqual([{ seen: n % 3 ? `${n}` : null }]);
    });
    if (readOnly) return;
    const stored = await db.query<{ n: number }>('select n from lanes_t order by n');
    expect(stored.rows.map((r) => r.n)).toEqual(Array.from({ length: 20 }, (_, i) => 2 * i));
  });
});

describe.runIf(process.env.DATABASE_URL)('Database.batch lanes on PostgreSQL', () => {
  let db: Database;
  let dispose: () => Promise<void>;
  beforeAll(async () => ({ db, dispose } = await freshDatabase()));
  afterAll(() => dispose());

  /** The tests below block the read lanes. */
  const readOnly = { readOnly: true };
  const backendPid = async () => {
    const [r] = await db.batch([{ sql: 'select pg_backend_pid() as pid' }], readOnly);
    return (r?.rows[0] as { pid: number }).pid;
  };
  const waitingForLock = async () => {
    const r = await db.query<{ pid: number }>(
      `select pid from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock' order by pid`,
    );
    return r.rows.map((row) => row.pid);
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /**
   * One batch waiting for advisory lock `key` on every read lane. Reads pack onto a lane that
   * keeps up, so each is sent once the lane before it has stopped moving.
   */
  const blockEveryLane = async (key: number) => {
    const blocked: Promise<unknown>[] = [];
    for (let lane = 1; lane <= READ_LANES; lane++) {
      blocked.push(db.batch([{ sql: `select pg_advisory_xact_lock(${key})` }], readOnly));
      await expect.poll(waitingForLock).toHaveLength(lane);
      await pause(2 * PACK_MS);
    }
    return blocked;
  };

  it('pack reads that keep up onto one backend', async () => {
    // A lane keeps up while its work moved within PACK_MS (1 ms): on a loaded machine the
    // batches of one Promise.all can be further apart than that. The clock stands still
    // here, so every read keeps up and the placement alone decides.
    const frozen = vi.spyOn(performance, 'now').mockReturnValue(performance.now());
    try {
      const pids = await Promise.all(Array.from({ length: PACK_DEPTH - 1 }, backendPid));
      expect(new Set(pids).size).toBe(1);
      for (let i = 0; i < 5; i++) expect(await backendPid()).toBe(pids[0]);
    } finally {
      frozen.mockRestore();
    }
  });

  it('spread reads over more backends once one has a backlog', async () => {
    const pids = await Promise.all(Array.from({ length: 3 * PACK_DEPTH }, backendPid));
    expect(new Set(pids).size).toBeGreaterThan(1);
  });

  it('send reads past a lane whose head is slow, long before it counts as stalled', async () => {
    let slow: Promise<unknown> | undefined;
    await db.transaction(async (holder) => {
      await holder.query('select pg_advisory_xact_lock(4200)');
      slow = db.batch([{ sql: 'select pg_advisory_xact_lock(4200)' }], readOnly);
      await expect.poll(waitingForLock).toHaveLength(1);
      const [slowPid] = await waitingForLock();
      await pause(2 * PACK_MS);
      const started = performance.now();
      expect(await backendPid()).not.toBe(slowPid);
      expect(performance.now() - started).toBeLessThan(STALL_MS);
    });
    await slow;
  });

  it('pass over lanes stuck behind a lock: other batches do not queue behind them', async () => {
    let blocked: Promise<unknown>[] = [];
    await db.transaction(async (holder) => {
      await holder.query('select pg_advisory_xact_lock(4201)');
      blocked = await blockEveryLane(4201);
      await pause(3 * STALL_MS);
      // Were these queued behind a blocked batch, they would wait for the lock, held until
      // after them: the test would time out.
      for (let i = 0; i < 5; i++) expect(await backendPid()).toBeGreaterThan(0);
      await Promise.all(
        Array.from({ length: 10 }, async () => expect(await backendPid()).toBeGreaterThan(0)),
      );
    });
    // They run once the lock is released, and leave the lanes idle for the next test.
    await Promise.all(blocked);
  });

  it('fail the batches of a lane whose connection dies, and open it again', async () => {
    await db.transaction(async (holder) => {
      await holder.query('select pg_advisory_xact_lock(4202)');
      const blocked = db.batch([{ sql: 'select pg_advisory_xact_lock(4202)' }], readOnly);
      // Packed onto the same lane: written behind the blocked batch.
      const behind = db.batch([{ sql: 'select 1 as n' }], readOnly);
      const outcomes = Promise.allSettled([blocked, behind]);
      await expect.poll(waitingForLock).toHaveLength(1);
      await db.query('select pg_terminate_backend(pid) from unnest($1::int[]) pid', [
        await waitingForLock(),
      ]);
      const [first, second] = await outcomes;
      expect(first).toMatchObject({ status: 'rejected', reason: { code: '57P01' } });
      expect(second).toMatchObject({
        status: 'rejected',
        reason: { message: 'Connection terminated unexpectedly' },
      });
    });
    await expect
      .poll(() =>
        backendPid().then(
          (pid) => pid > 0,
          () => false,
        ),
      )
      .toBe(true);
    const pids = await Promise.all(Array.from({ length: 20 }, backendPid));
    expect(pids.every((pid) => pid > 0)).toBe(true);
  });
});
