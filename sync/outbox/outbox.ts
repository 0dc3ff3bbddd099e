import type { SupabaseClient } from '@supabase/supabase-js';
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
import { EMPTY_OUTBOX, type Mutation, type MutationInput, type OutboxState } from './types.ts';

/**
 * The queue lives in one RxDB local document rather than a collection: it is small, it is
 * rewritten whole on every change, and the free RxDB tier caps open collections per process
 * (13), which two or three replicas in one test process would exceed with an extra one.
 */
const OUTBOX_DOC = 'outbox';

export type OutboxDeps = {
  db: Replica;
  client: SupabaseClient;
  clock: Clock;
  timers: Timers;
  backoff: Backoff;
  isOnline(): boolean;
  /** Throws while the user's session is not usable, making the attempt transient (A1). */
  ensureSession(): Promise<void>;
  /** Puts the server's rows in the replica and resolves once they are stored (O6). */
  applyServerRows(outcome: Extract<RpcOutcome, { kind: 'applied' }>): Promise<void>;
  onRejected(rejected: Mutation[]): void;
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
  const stored = await deps.db.getLocal<OutboxState>(OUTBOX_DOC);
  const state$ = new BehaviorSubject<OutboxState>(
    stored ? (stored.toJSON().data as OutboxState) : EMPTY_OUTBOX,
  );
  let writes: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let running = false;
  let again = false;
  let cancelTimer: (() => void) | null = null;

  /** Every change is persisted before it is visible, one at a time (O1). */
  function modify(fn: (s: OutboxState) => OutboxState): Promise<OutboxState> {
    const next = writes.then(async () => {
      const updated = fn(state$.getValue());
      await deps.db.upsertLocal<OutboxState>(OUTBOX_DOC, updated);
      state$.next(updated);
      return updated;
    });
    writes = next.catch(() => undefined);
    return next;
  }

  async function sendOne(m: Mutation): Promise<void> {
    const target = resolveAppointmentId(state$.getValue(), m.appointmentId);
    let outcome: RpcOutcome;
    try {
      await deps.ensureSession();
      outcome = await sendMutation(deps.client, m, target);
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
        while (!stopped && deps.isOnline()) {
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
      cancelTimer?.();
    },
  };
}
