import { Worker } from 'node:worker_threads';
import type { Database, QueryResult, Queryable, Row, Statement } from './types.ts';
import {
  engineError,
  fromWireError,
  outbox,
  type Call,
  type CallBody,
  type Event,
} from './pglite-messages.ts';

/**
 * Embedded Postgres in a thread of its own (db/pglite-worker.ts), watched from the server's.
 *
 * PGlite ignores `statement_timeout`: its engine never yields while a statement runs, so in the
 * server's own thread one slow request would hold every other one until it ended. Here, work
 * that carries a timeout (the caller role's `statement_timeout`, see `Database.batch`) and is
 * still in the engine when it runs out gets the thread stopped and the database reopened from
 * its directory — Postgres' crash recovery, exactly as after a power cut, so nothing committed
 * is lost. That work is answered as Postgres answers a timed-out statement (57014); batches that
 * were still queued behind it run on the reopened engine, unaware. An in-memory database
 * (tests) cannot be reopened: there the timeouts are not enforced.
 */
export async function openPgliteThread(
  dataDir?: string,
  onReopen?: (cause: ReopenCause) => void,
): Promise<Database> {
  const engine = new EngineThread(dataDir, onReopen);
  await engine.start();
  return engine.database();
}

const WORKER_URL = new URL('./pglite-worker-boot.mjs', import.meta.url);

/** Why the engine was reopened: for the server's log, where an operator looks first. */
export type ReopenCause = 'statement timeout' | 'engine thread exited';

type Pending = {
  id: number;
  body: CallBody;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** The caller's statement timeout; none means the work may take as long as it needs. */
  timeoutMs: number | undefined;
  /** True until the call's statements start: only then may it be sent again elsewhere. */
  resendable: boolean;
};

type Listener = {
  channel: string;
  onNotify(payload: string): void;
  onReconnect: (() => void) | undefined;
  /** The worker's number for this LISTEN, renewed when the engine is reopened. */
  remote: number;
};

/** A transaction lives in one engine: a reopened engine has rolled it back. */
type TransactionHandle = { tx: number; generation: number; timeoutMs: number | undefined };

const TIMED_OUT = () => engineError('57014', 'canceling statement due to statement timeout');
const ENGINE_RESTARTED = () =>
  engineError('57P01', 'terminating connection due to administrator command');

class EngineThread {
  private worker: Worker | undefined;
  /** Sends to the current worker, a turn's calls in one message. */
  private post: (call: Call) => void = () => undefined;
  /** Counts the engines opened: work begun in an earlier one is gone. */
  private generation = 0;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Calls made while the engine is (re)opening; sent once it is open. */
  private waiting: Pending[] = [];
  private readonly listeners = new Set<Listener>();
  /**
   * The one deadline of the work in the engine. The engine runs one call at a time and its
   * answers leave before the next call's 'entered', so each entry replaces the last watch
   * instead of leaving a timer (holding its requests) behind for every request.
   */
  private watch: NodeJS.Timeout | undefined;
  private open = false;
  private closed = false;

  constructor(
    private readonly dataDir: string | undefined,
    private readonly onReopen: ((cause: ReopenCause) => void) | undefined,
  ) {}

  async start(): Promise<void> {
    this.generation++;
    const worker = new Worker(WORKER_URL, { workerData: { dataDir: this.dataDir } });
    this.worker = worker;
    this.post = outbox<Call>((calls) => worker.postMessage(calls));
    let opened = false;
    await new Promise<void>((resolve, reject) => {
      worker.on('message', (events: Event[]) => {
        for (const event of events) {
          if (event.kind === 'opened') {
            opened = true;
            resolve();
          } else if (worker === this.worker) this.receive(event);
        }
      });
      // Before it opened, the error is the caller's; after, the exit below reopens the engine.
      worker.on('error', reject);
      worker.once('exit', (code) => {
        if (!opened) reject(new Error(`the embedded database's thread exited (${code}) opening`));
        else if (worker === this.worker) void this.lost();
      });
    });
    this.open = true;
    for (const listener of this.listeners) {
      listener.remote = (await this.call({ op: 'listen', channel: listener.channel })) as number;
      listener.onReconnect?.();
    }
    const waiting = this.waiting;
    this.waiting = [];
    for (const call of waiting) this.send(call);
  }

  call(body: CallBody, timeoutMs?: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const call: Pending = {
        id: this.nextId++,
        body,
        resolve,
        reject,
        timeoutMs,
        resendable: body.op === 'batch',
      };
      if (this.closed) reject(ENGINE_RESTARTED());
      else if (this.open) this.send(call);
      else this.waiting.push(call);
    });
  }

  private send(call: Pending): void {
    this.pending.set(call.id, call);
    this.post({ ...call.body, id: call.id });
    // A statement of an open transaction starts at once: the transaction holds the engine.
    if ('tx' in call.body && call.body.tx !== undefined) this.entered([call.id]);
  }

  private receive(event: Exclude<Event, { kind: 'opened' }>): void {
    if (event.kind === 'entered') return this.entered(event.ids);
    if (event.kind === 'notification') {
      for (const listener of this.listeners) {
        if (listener.remote === event.listener) listener.onNotify(event.payload);
      }
      return;
    }
    const call = this.pending.get(event.id);
    if (!call) return;
    this.pending.delete(event.id);
    if (event.kind === 'answer') call.resolve(event.value);
    else call.reject(fromWireError(event.error));
  }

  /**
   * Calls that went into the engine together share one deadline: the longest of their
   * timeouts, so a short anonymous read never cuts a longer signed-in statement beside it.
   */
  private entered(ids: number[]): void {
    const group = ids.flatMap((id) => this.pending.get(id) ?? []);
    for (const call of group) call.resendable = false;
    clearTimeout(this.watch);
    this.watch = undefined;
    if (this.dataDir === undefined || !group.length) return;
    const timeouts = group.map((call) => call.timeoutMs);
    if (timeouts.some((t) => t === undefined)) return;
    this.watch = setTimeout(
      () => {
        this.watch = undefined;
        const stuck = group.filter((call) => this.pending.has(call.id));
        if (stuck.length) void this.reopen(stuck);
      },
      Math.max(...(timeouts as number[])),
    ).unref();
  }

  /** Stops the engine's thread with `stuck` inside and opens the database again. */
  private async reopen(stuck: Pending[]): Promise<void> {
    this.open = false;
    const worker = this.worker!;
    this.worker = undefined;
    this.settleInterrupted(new Set(stuck));
    this.onReopen?.('statement timeout');
    await worker.terminate();
    await this.restart();
  }

  /** The thread ended without being asked to (an engine abort, out of memory). */
  private async lost(): Promise<void> {
    this.open = false;
    this.worker = undefined;
    this.settleInterrupted(new Set());
    if (this.closed) return;
    // An in-memory database died with its thread: nothing to reopen.
    if (this.dataDir === undefined) return this.refuseAll();
    this.onReopen?.('engine thread exited');
    await this.restart();
  }

  private async restart(): Promise<void> {
    await this.start().catch(() => this.refuseAll());
  }

  /** A database that cannot be opened again refuses all work rather than keep it waiting. */
  private refuseAll(): void {
    this.closed = true;
    this.worker = undefined;
    for (const call of this.waiting.splice(0)) call.reject(ENGINE_RESTARTED());
  }

  /** Work that had started is answered; batches that had not are kept for the next engine. */
  private settleInterrupted(stuck: Set<Pending>): void {
    clearTimeout(this.watch);
    this.watch = undefined;
    const resend: Pending[] = [];
    for (const call of this.pending.values()) {
      if (call.resendable) resend.push(call);
      else call.reject(stuck.has(call) ? TIMED_OUT() : ENGINE_RESTARTED());
    }
    this.pending.clear();
    this.waiting = [...resend, ...this.waiting];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.call({ op: 'close' });
    this.closed = true;
    this.open = false;
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  async listen(
    channel: string,
    onNotify: (payload: string) => void,
    onReconnect?: () => void,
  ): Promise<() => Promise<void>> {
    const remote = (await this.call({ op: 'listen', channel })) as number;
    const listener: Listener = { channel, onNotify, onReconnect, remote };
    this.listeners.add(listener);
    return async () => {
      this.listeners.delete(listener);
      if (!this.closed) await this.call({ op: 'unlisten', listener: listener.remote });
    };
  }

  async transaction<T>(
    fn: (tx: Queryable) => Promise<T>,
    opts: { prelude?: Statement; timeoutMs?: number } | undefined,
  ): Promise<T> {
    const tx = (await this.call(
      opts?.prelude ? { op: 'begin', prelude: opts.prelude } : { op: 'begin' },
      opts?.timeoutMs,
    )) as number;
    const handle: TransactionHandle = {
      tx,
      generation: this.generation,
      timeoutMs: opts?.timeoutMs,
    };
    let value: T;
    try {
      value = await fn(this.inTransaction(handle));
    } catch (e) {
      await this.end(handle, false).catch(() => undefined);
      throw e;
    }
    await this.end(handle, true);
    return value;
  }

  private inTransaction(handle: TransactionHandle): Queryable {
    return {
      query: <T = Row>(sql: string, params: readonly unknown[] = []) =>
        this.inEngineOf(handle, { op: 'query', sql, params, tx: handle.tx }) as Promise<
          QueryResult<T>
        >,
      exec: async (sql: string) => {
        await this.inEngineOf(handle, { op: 'exec', sql, tx: handle.tx });
      },
    };
  }

  private end(handle: TransactionHandle, commit: boolean): Promise<unknown> {
    return this.inEngineOf(handle, { op: 'end', tx: handle.tx, commit });
  }

  /** A transaction's statement, refused when the engine that held the transaction is gone. */
  private inEngineOf(handle: TransactionHandle, body: CallBody): Promise<unknown> {
    if (handle.generation !== this.generation || !this.open) {
      return Promise.reject(ENGINE_RESTARTED());
    }
    return this.call(body, handle.timeoutMs);
  }

  database(): Database {
    return {
      kind: 'pglite',
      query: <T = Row>(sql: string, params: readonly unknown[] = []) =>
        this.call({ op: 'query', sql, params }) as Promise<QueryResult<T>>,
      exec: async (sql) => {
        await this.call({ op: 'exec', sql });
      },
      batch: (statements, opts) =>
        this.call({ op: 'batch', statements }, opts?.timeoutMs) as Promise<QueryResult[]>,
      transaction: (fn, opts) => this.transaction(fn, opts),
      listen: (channel, onNotify, onReconnect) => this.listen(channel, onNotify, onReconnect),
      close: () => this.close(),
    };
  }
}
