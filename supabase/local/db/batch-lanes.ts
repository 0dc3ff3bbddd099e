import { availableParallelism } from 'node:os';
import pg from 'pg';
import { runBatch } from './postgres-batch.ts';
import type { QueryResult, Statement } from './types.ts';

/**
 * Batches pipelined on a few long-lived connections ("lanes") instead of one pooled connection
 * each. A request's batch is a whole implicit transaction closed by its own Sync, so batches
 * written one after another on a connection stay independent: each commits or rolls back alone,
 * and its local settings (role, claims) end with it. What pipelining saves is the wake-up: on a
 * pool, every request writes to a backend that sleeps and answers from it, and on a small
 * machine those wake-ups cost more CPU than the request itself (REST reads ran at ~4,300/s
 * through 16 pooled connections and ~8,400/s through two lanes; bench/rest).
 *
 * Reads and writes take separate lanes, and fill them differently:
 *  - writes spread over the least busy lane: a backend waits for its commit's WAL flush before
 *    it reads the next batch, so the commits on one lane are flushed one after another, and only
 *    commits waiting on different lanes can share a flush (REST inserts: ~4,600/s through the
 *    pool, ~5,400/s through two lanes, ~6,000/s through six to eight);
 *  - reads pack onto the first lane that keeps up: each further backend a read wakes is another
 *    process competing for the cores, and on a small machine one backend answers more reads
 *    than two (REST reads on 2 cores: ~20,500/s spread over two lanes, ~23,300/s packed onto
 *    one). A read lane stops taking reads once `PACK_DEPTH` wait on it or its work has not moved
 *    for `PACK_MS` (a slow query at its head); the least busy lane takes them meanwhile.
 *
 * The price of pipelining is head-of-line blocking: a batch waits for the ones ahead of it on
 * its lane. So a lane whose work has not moved for `STALL_MS` (a lock wait, a slow function)
 * takes no new batches; when no lane can take one, the caller runs the batch on a pooled
 * connection of its own. A lost connection fails every batch written on it, as a pool fails
 * the requests on its connections when the server goes away; the lane reconnects on next use.
 */

/** A busy lane that has completed nothing for this long is passed over. */
export const STALL_MS = 25;

/** A read lane keeps taking reads while fewer wait on it than this… */
export const PACK_DEPTH = 16;
/** …and its work moved this recently. */
export const PACK_MS = 1;

/** Lanes for read-only batches: one per core the database can use, if it runs beside us. */
export const READ_LANES = Math.min(8, Math.max(2, availableParallelism()));

/**
 * Lanes for batches that write: enough commits in flight to share WAL flushes. A lane's commits
 * are flushed one after another, so a flush is shared by at most as many commits as there are
 * lanes: with a flush of ~3 ms (this kind of small server's disk), 8 lanes held 16 concurrent
 * REST inserts to ~2,000/s against ~2,800/s for the same 16 clients on 16 pooled connections
 * (bench/rest, direct+role against direct). Only `WRITE_LANES_AT_START` open up front.
 */
export const WRITE_LANES = 16;
export const WRITE_LANES_AT_START = 2;

class Lane {
  private client: pg.Client | undefined;
  private opening: Promise<void> | undefined;
  private closed = false;
  inFlight = 0;
  private corked = false;
  /** When the lane last moved: a batch of it settled, or it went from idle to busy. */
  private movedAt = 0;

  constructor(private readonly config: pg.ClientConfig) {}

  get connected(): boolean {
    return this.client !== undefined;
  }

  /** Connected and not stalled at `now`. */
  available(now: number): boolean {
    if (!this.client) return false;
    return this.inFlight === 0 || now - this.movedAt < STALL_MS;
  }

  /** Starts opening the lane's connection; its batches go elsewhere meanwhile. */
  connectSoon(): void {
    if (!this.closed) this.open().catch(() => {});
  }

  /** Idle, or moving at `now` with room behind its work: a packed batch waits little here. */
  keepsUp(now: number): boolean {
    return this.inFlight === 0 || (this.inFlight < PACK_DEPTH && now - this.movedAt < PACK_MS);
  }

  async run(statements: readonly Statement[], now: number): Promise<QueryResult[]> {
    if (this.inFlight++ === 0) this.movedAt = now;
    this.holdWrites(this.client!);
    try {
      return await runBatch(this.client!, statements, this.config.types!);
    } finally {
      this.inFlight--;
      this.movedAt = performance.now();
    }
  }

  /**
   * Holds the connection's writes until this turn of the event loop has handled all the I/O
   * that woke it, so the batches of requests that arrived together leave in one write.
   */
  private holdWrites(client: pg.Client): void {
    if (this.corked) return;
    this.corked = true;
    const stream = client.connection.stream;
    stream.cork();
    setImmediate(() => {
      this.corked = false;
      stream.uncork();
    });
  }

  /** Opens the lane's connection unless it has one or is opening it; rejects if that fails. */
  open(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.opening ??= this.connect().finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ ...this.config, pipeline: true });
    // A dead connection fails the batches on it (node-pg rejects each); the next one reopens it.
    const drop = () => {
      if (this.client === client) this.client = undefined;
    };
    client.on('error', drop);
    client.on('end', drop);
    await client.connect();
    if (this.closed) await client.end();
    else this.client = client;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}

/** How a lane set places batches: on the least busy lane, or on the first that keeps up. */
export type Placement = 'spread' | 'pack';

export class BatchLanes {
  private readonly lanes: Lane[];

  constructor(
    config: pg.ClientConfig,
    count: number,
    private readonly placement: Placement,
  ) {
    this.lanes = Array.from({ length: count }, () => new Lane(config));
  }

  /** Opens the first `count` lanes (all by default); the others open when the load needs them. */
  async open(count = this.lanes.length): Promise<void> {
    await Promise.all(this.lanes.slice(0, count).map((lane) => lane.open()));
  }

  /**
   * Runs `statements` on a lane that can take them (see `Placement`); undefined when none can
   * (all stalled, or not connected yet), and the caller finds another connection. When every
   * connected lane is busy, one more lane starts connecting: a server idle or lightly used
   * keeps few connections, and one under load grows to all its lanes (lost connections come
   * back the same way).
   */
  run(statements: readonly Statement[]): Promise<QueryResult[]> | undefined {
    const now = performance.now();
    let best: Lane | undefined;
    let unconnected: Lane | undefined;
    for (const lane of this.lanes) {
      if (!lane.connected) {
        unconnected ??= lane;
        continue;
      }
      if (!lane.available(now)) continue;
      if (this.placement === 'pack' && lane.keepsUp(now)) return lane.run(statements, now);
      if (!best || lane.inFlight < best.inFlight) best = lane;
    }
    if (unconnected && (!best || best.inFlight > 0)) unconnected.connectSoon();
    return best?.run(statements, now);
  }

  async close(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.close()));
  }
}
