/**
 * Starts the engine's parts for one person and stops them: the replica, one replication per
 * collection, the outbox and the connectivity they follow. What each part does is in its own
 * module (sync/SPEC.md, "Modules").
 */
import { BehaviorSubject, Subject, distinctUntilChanged, filter, firstValueFrom, map } from 'rxjs';
import type { Observable } from 'rxjs';
import { followConnectivity, onlineNow, resync } from './connectivity.ts';
import { deleteReplicaFiles, dexieStorage, openReplica, type Replica } from './database.ts';
import { browserIndexedDb } from './replica-files.ts';
import type { EngineOptions, SyncUser } from './engine-options.ts';
import type { Engine, Running } from './engine-state.ts';
import { askFirstPages, pulledOnce$ } from './first-pull.ts';
import { openOutbox, type Outbox } from './outbox/outbox.ts';
import { prepareReplication, requestPull } from './replication.ts';
import { randomId, systemClock, systemTimers, yieldToMainThread } from './runtime.ts';
import { storeServerRow } from './server-rows.ts';
import { sessionFor } from './session.ts';
import { StatusTracker, type SyncStatus } from './status.ts';
import type { SyncEvent } from './sync-events.ts';
import { tablesFor, type Role, type TableName } from './tables.ts';
import { createViews, type Views } from './views.ts';

/** A started engine, as the public façade (sync-engine.ts) builds on it. */
export type EngineCore = {
  db: Replica;
  role: Role;
  user: SyncUser | null;
  views: Views;
  outbox: Outbox;
  newId: () => string;
  status$: Observable<SyncStatus>;
  events$: Observable<SyncEvent>;
  resync: () => void;
  pulledOnce$: (table: TableName) => Observable<boolean>;
  awaitInitialSync: () => Promise<void>;
  awaitInSync: () => Promise<void>;
  close: () => Promise<void>;
  remove: () => Promise<void>;
};

function openEngineOutbox(e: Engine): Promise<Outbox> {
  const { opts } = e;
  return openOutbox({
    db: e.db,
    client: opts.supabase,
    clock: e.clock,
    timers: opts.timers ?? systemTimers,
    backoff: opts.backoff ?? { baseMs: 1_000, maxMs: 60_000 },
    isOnline: () => e.online.getValue(),
    isLeader: () => e.db.isLeader(),
    session: e.session,
    applyServerRows: async ({ appointment, guide }) => {
      await Promise.all([
        storeServerRow(e, 'agendamentos', appointment),
        storeServerRow(e, 'guias', guide),
      ]);
    },
    onRejected: (rejected) => {
      for (const mutation of rejected) {
        const { reason, message } = mutation.rejection ?? { reason: 'unknown', message: '' };
        e.events$.next({ type: 'mutation-rejected', mutation, reason, message });
      }
      // The server knows why (e.g. who took the slot): show it now, not at the next sync.
      for (const table of ['agenda_ocupada', 'agendamentos'] as const) {
        const live = e.lives.get(table);
        if (live) requestPull(live);
      }
    },
    onApplied: (mutation, message) =>
      e.events$.next({ type: 'mutation-applied', mutation, message }),
    onBusy: (busy) => e.status.setSending(busy),
    onError: (message) => e.status.error('outbox', message),
  });
}

async function shutdown(e: Running, stopAuth: () => void): Promise<void> {
  e.closed$.next();
  e.outbox.stop();
  stopAuth();
  for (const sub of e.subs) sub.unsubscribe();
  await e.transitions;
  await Promise.all(
    [...e.lives.values()].map(async (live) => {
      if (live.channel) await e.opts.supabase.removeChannel(live.channel);
      await live.replication.cancel();
    }),
  );
}

async function awaitInSync(e: Running): Promise<void> {
  await Promise.all([...e.lives.values()].map((l) => l.replication.awaitInSync()));
  await firstValueFrom(
    e.outbox.state$.pipe(
      map((st) => st.mutations.every((m) => m.state !== 'pending')),
      filter(Boolean),
    ),
  );
}

export async function startEngine(opts: EngineOptions): Promise<EngineCore> {
  const role: Role = opts.user?.role ?? 'visitor';
  const clock = opts.clock ?? systemClock;
  const idb = opts.indexedDB ?? browserIndexedDb();
  const events$ = new Subject<SyncEvent>();
  const specs = tablesFor(role, opts.tables);
  const session = sessionFor(opts.supabase, opts.user);
  const firstPages = await askFirstPages(opts, onlineNow(opts.online$), idb, specs, session);
  const db = await openReplica({
    storage: opts.storage ?? dexieStorage(idb),
    userId: opts.user?.id ?? null,
    role,
    multiInstance: opts.multiInstance ?? false,
    onConflict: (report) => events$.next({ type: 'write-conflict', report }),
    tables: opts.tables,
  });
  const engine: Engine = {
    opts,
    clock,
    db,
    specs,
    status: new StatusTracker(
      specs.map((spec) => spec.name),
      clock,
    ),
    lives: new Map(),
    online: new BehaviorSubject(true),
    events$,
    closed$: new Subject<void>(),
    subs: [],
    session,
    transitions: Promise.resolve(),
  };
  // The start's steps each in a task of their own (as the collections' set-up is, database.ts):
  // run back to back they made one long task of the page's load.
  await yieldToMainThread();
  for (const spec of specs) {
    engine.lives.set(spec.name, prepareReplication(engine, spec, role, firstPages.get(spec.name)));
  }
  await yieldToMainThread();
  const e: Running = Object.assign(engine, { outbox: await openEngineOutbox(engine) });
  await yieldToMainThread();

  // A tab that becomes the leader (the previous one closed) sends what the others queued (Q1).
  db.waitForLeadership()
    .then(() => e.outbox.wake({ resetBackoff: true }))
    .catch((error: unknown) => e.status.error('outbox', String(error)));
  const stopAuth = followConnectivity(e);

  return {
    db,
    role,
    user: opts.user,
    views: createViews(db, e.outbox.state$, opts.user?.id ?? null),
    outbox: e.outbox,
    newId: opts.newId ?? randomId,
    status$: e.status.status$(e.online.pipe(distinctUntilChanged()), e.outbox.state$),
    events$: events$.asObservable(),
    resync: () => resync(e),
    pulledOnce$: (table) => pulledOnce$(db, specs, table),
    async awaitInitialSync() {
      await Promise.all([...e.lives.values()].map((l) => l.first.whenStored));
    },
    awaitInSync: () => awaitInSync(e),
    async close() {
      await shutdown(e, stopAuth);
      await db.close();
    },
    async remove() {
      await shutdown(e, stopAuth);
      await db.remove();
      await deleteReplicaFiles(idb, opts.user?.id ?? null);
    },
  };
}
