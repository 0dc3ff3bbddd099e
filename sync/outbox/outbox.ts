import type { SupabaseClient } from '@supabase/supabase-js';
import type { RxLocalDocument } from 'rxdb';
import { BehaviorSubject, type Observable } from 'rxjs';
import type { Replica } from '../database.ts';
import type { Clock, Timers } from '../runtime.ts';
import {
  clearBackoff,
  dismiss,
  enqueue,
  markApplied,
  markRejected,
  markRetry,
  nextToSend,
  resolveAppointmentId,
  type Backoff,
} from './queue.ts';
import { sendMutation, type RpcOutcome } from './rpc.ts';
import type { Session } from '../session.ts';
import { EMPTY_OUTBOX, type Mutation, type MutationInput, type OutboxState } from './types.ts';

/**
 * The queue lives in one RxDB local document rather than a collection: it is small, and the
 * free RxDB tier caps open collections per process (13), which two or three replicas in one
 * test process would exceed with an extra one. Every tab of the user's replica shares it.
 */
const OUTBOX_DOC = 'outbox';

type OutboxDoc = RxLocalDocument<Replica, OutboxState>;

/** The queue a stored document holds (RxDB hands it out read-only; the queue never mutates). */
function dataOf(doc: OutboxDoc): OutboxState {
  return doc.toJSON().data as OutboxState;
}

/** The revision height of a document (`3-abc…` → 3), to tell newer states from older ones. */
function height(doc: OutboxDoc): number {
  return Number.parseInt(doc.revision, 10);
}

/**
 * The queue's document; created empty by the first tab that needs it. Two tabs creating it at
 * once: one insert wins, the other takes the winner's document instead of overwriting it.
 */
async function outboxDoc(db: Replica): Promise<OutboxDoc> {
  const existing = await db.getLocal<OutboxState>(OUTBOX_DOC);
  if (existing) return existing;
  try {
    return await db.insertLocal<OutboxState>(OUTBOX_DOC, EMPTY_OUTBOX);
  } catch (error) {
    const created = await db.getLocal<OutboxState>(OUTBOX_DOC);
    if (created) return created;
    throw error;
  }
}

export type OutboxDeps = {
  db: Replica;
  client: SupabaseClient;
  clock: Clock;
  timers: Timers;
  backoff: Backoff;
  isOnline(): boolean;
  /** Only one tab sends the queue: the RxDB leader (Q1). Any tab may add to it. */
  isLeader(): boolean;
  /** Every request goes through it; while it throws, attempts are transient (A1). */
  session: Session;
  /** Puts the server's rows in the replica and resolves once they are stored (O6). */
  applyServerRows(outcome: Extract<RpcOutcome, { kind: 'applied' }>): Promise<void>;
  onRejected(rejected: Mutation[]): void;
  /** A mutation the server applied, once its rows are stored and it left the queue (O7). */
  onApplied(mutation: Mutation, message: string | null): void;
  onBusy(busy: boolean): void;
  /** Failures of the queue itself (e.g. storage), for the status observable. */
  onError(message: string): void;
};

export type Outbox = {
  state$: Observable<OutboxState>;
  current(): OutboxState;
  add(input: MutationInput, meta: { id: string; appointmentId: string }): Promise<Mutation>;
  dismiss(id: string): Promise<void>;
  /** Look at the queue now (a new mutation, back online, a resync). */
  wake(opts?: { resetBackoff?: boolean }): void;
  stop(): void;
};

export async function openOutbox(deps: OutboxDeps): Promise<Outbox> {
  let doc = await outboxDoc(deps.db);
  const state$ = new BehaviorSubject<OutboxState>(dataOf(doc));
  let writes: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let running = false;
  let again = false;
  let cancelTimer: (() => void) | null = null;

  /** Shows a stored state unless a newer one is already shown. */
  function show(next: OutboxDoc): boolean {
    if (height(next) <= height(doc)) return false;
    doc = next;
    state$.next(dataOf(next));
    return true;
  }

  /**
   * Every change is persisted before it is visible, one at a time (O1), and applied to the
   * stored queue, not to this tab's copy: when another tab wrote in between, RxDB's
   * incremental write runs `fn` again on the stored state, so both tabs' changes stay (Q1).
   */
  function modify(fn: (s: OutboxState) => OutboxState): Promise<OutboxState> {
    const next = writes.then(async () => {
      const written = await doc.incrementalModify((stored) => fn(stored));
      show(written);
      return dataOf(written);
    });
    writes = next.catch(() => undefined);
    return next;
  }

  // Changes made by other tabs: show them, and the leader sends what they queued. The
  // document's own `$` looks at each change batch once; `db.getLocal$` would run two async
  // steps for every document of every collection (20,000 during a doctor's first sync).
  const others = doc.$.subscribe((stored) => {
    if (show(stored)) wake();
  });

  async function sendOne(m: Mutation): Promise<void> {
    const target = resolveAppointmentId(state$.getValue(), m.appointmentId);
    let outcome: RpcOutcome;
    try {
      outcome = await sendMutation(deps.client, deps.session, m, target);
    } catch (error) {
      outcome = { kind: 'transient', error: String(error) };
    }
    switch (outcome.kind) {
      case 'applied': {
        await deps.applyServerRows(outcome);
        const serverId =
          m.kind === 'book' && typeof outcome.appointment?.id === 'string'
            ? outcome.appointment.id
            : undefined;
        await modify((s) => markApplied(s, m.id, serverId));
        deps.onApplied(m, outcome.message);
        return;
      }
      case 'rejected': {
        let rejected: Mutation[] = [];
        await modify((s) => {
          const result = markRejected(s, m.id, outcome.rejection);
          rejected = result.rejected;
          return result.state;
        });
        deps.onRejected(rejected);
        return;
      }
      case 'transient':
        await modify((s) => markRetry(s, m.id, outcome.error, deps.clock.epochMs(), deps.backoff));
        return;
    }
  }

  async function run(): Promise<void> {
    if (running) {
      again = true;
      return;
    }
    running = true;
    deps.onBusy(true);
    try {
      do {
        again = false;
        while (!stopped && deps.isOnline() && deps.isLeader()) {
          const next = nextToSend(state$.getValue(), deps.clock.epochMs());
          if (next === null) break;
          if ('waitMs' in next) {
            cancelTimer?.();
            cancelTimer = deps.timers.after(next.waitMs, () => wake());
            break;
          }
          await sendOne(next.mutation);
        }
      } while (again && !stopped);
    } finally {
      running = false;
      deps.onBusy(false);
    }
  }

  function wake(opts: { resetBackoff?: boolean } = {}): void {
    if (stopped) return;
    const start = opts.resetBackoff ? modify(clearBackoff).then(run) : run();
    start.catch((error: unknown) => {
      if (!stopped) deps.onError(String(error));
    });
  }

  return {
    state$: state$.asObservable(),
    current: () => state$.getValue(),
    async add(input, meta) {
      const createdAt = deps.clock.now();
      const state = await modify((s) => enqueue(s, input, { ...meta, createdAt }));
      wake();
      return state.mutations[state.mutations.length - 1] as Mutation;
    },
    async dismiss(id) {
      await modify((s) => dismiss(s, id));
    },
    wake,
    stop() {
      stopped = true;
      others.unsubscribe();
      cancelTimer?.();
    },
  };
}
