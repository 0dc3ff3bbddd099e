/**
 * The embedded engine's own thread: PGlite runs here so that the server's thread stays free
 * to notice a statement that outlives its timeout and stop this thread (db/pglite-thread.ts).
 * Inside, PGlite cannot be interrupted: the WebAssembly engine never yields while a statement
 * runs, and Postgres' own statement timer needs that.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openPglite, type PgliteDatabase } from './pglite.ts';
import { outbox, toWireError, type Call, type Event } from './pglite-messages.ts';
import type { Queryable } from './types.ts';

type OpenTransaction = { tx: Queryable; finish(commit: boolean): void; ended: Promise<void> };

/** Thrown into a transaction's callback to roll it back when the caller asks to. */
const ROLLBACK = new Error('rolled back by the caller');

const port = parentPort!;
const transactions = new Map<number, OpenTransaction>();
const listeners = new Map<number, () => Promise<void>>();
let nextTransaction = 1;
let nextListener = 1;

const send = outbox<Event>((events) => port.postMessage(events));

/**
 * Said at once, not at the turn's end: the engine is entered right after, synchronously, and
 * the other thread's watch must start before it.
 */
function entered(ids: number[]): void {
  port.postMessage([{ kind: 'entered', ids } satisfies Event]);
}

const db: PgliteDatabase = await openPglite((workerData as { dataDir?: string }).dataDir, entered);

function target(tx: number | undefined): Queryable {
  if (tx === undefined) return db;
  const open = transactions.get(tx);
  if (!open) throw new Error(`transaction ${tx} is not open`);
  return open.tx;
}

/**
 * Opens a transaction that stays open across calls: the caller's callback runs in the other
 * thread, so its statements arrive one by one until `end` commits or rolls it back.
 */
function begin(id: number, call: Call & { op: 'begin' }): Promise<number> {
  return new Promise((resolve, reject) => {
    const ended = db.transaction(
      (tx) =>
        new Promise<void>((finished, rollBack) => {
          const number = nextTransaction++;
          transactions.set(number, {
            tx,
            finish: (commit) => (commit ? finished() : rollBack(ROLLBACK)),
            ended: ended.then(
              () => undefined,
              (e: unknown) => {
                if (e !== ROLLBACK) throw e;
              },
            ),
          });
          entered([id]);
          resolve(number);
        }),
      call.prelude ? { prelude: call.prelude } : undefined,
    );
    // A BEGIN or prelude that fails never reaches the callback.
    ended.catch(reject);
  });
}

async function end(tx: number, commit: boolean): Promise<void> {
  const open = transactions.get(tx);
  if (!open) return;
  transactions.delete(tx);
  open.finish(commit);
  await open.ended;
}

async function listen(channel: string): Promise<number> {
  const listener = nextListener++;
  listeners.set(
    listener,
    await db.listen(channel, (payload) => send({ kind: 'notification', listener, payload })),
  );
  return listener;
}

async function unlisten(listener: number): Promise<void> {
  const stop = listeners.get(listener);
  listeners.delete(listener);
  await stop?.();
}

async function run(call: Call): Promise<unknown> {
  switch (call.op) {
    case 'query':
      return target(call.tx).query(call.sql, call.params);
    case 'exec':
      return target(call.tx).exec(call.sql);
    case 'batch':
      return db.batchTagged(call.statements, call.id);
    case 'begin':
      return begin(call.id, call);
    case 'end':
      return end(call.tx, call.commit);
    case 'listen':
      return listen(call.channel);
    case 'unlisten':
      return unlisten(call.listener);
    case 'close':
      return db.close();
  }
}

port.on('message', (calls: Call[]) => calls.forEach(answer));

function answer(call: Call): void {
  run(call).then(
    (value) => send({ kind: 'answer', id: call.id, value }),
    (e: unknown) => send({ kind: 'failure', id: call.id, error: toWireError(e) }),
  );
}
send({ kind: 'opened' });
