import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import type { RxCollection, RxStorage } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import {
  BehaviorSubject,
  Subject,
  distinctUntilChanged,
  filter,
  firstValueFrom,
  map,
  of,
  race,
  take,
  timer,
  type Observable,
  type Subscription,
} from 'rxjs';
import { Temporal } from 'temporal-polyfill';
import type { ConflictReport } from './conflict.ts';
import { TransientSyncError } from './errors.ts';
import {
  browserIndexedDb,
  deleteReplicaFiles,
  dexieStorage,
  hasReplicaFiles,
  openReplica,
  type IndexedDbSource,
  type Replica,
} from './database.ts';
import { openOutbox, type Outbox } from './outbox/outbox.ts';
import type { Backoff } from './outbox/queue.ts';
import type { Mutation } from './outbox/types.ts';
import {
  MAX_PAGE_ROWS,
  askFirstPage,
  createPullSource,
  type Checkpoint,
  type PageAhead,
  type PullSource,
} from './pull.ts';
import { createPushHandler, type WriteRejection } from './push.ts';
import { subscribeTable } from './realtime.ts';
import type { ServerRow } from './row.ts';
import { randomId, systemClock, systemTimers, type Clock, type Timers } from './runtime.ts';
import type { Session } from './session.ts';
import { StatusTracker, type SyncStatus } from './status.ts';
import {
  pushesFor,
  tablesFor,
  type ReplicaDoc,
  type Role,
  type TableName,
  type TableSpec,
} from './tables.ts';
import { createViews, type Views } from './views.ts';

export type SyncUser = { id: string; role: 'paciente' | 'medico' };

/** Something the UI may want to tell the person about (O5, O7, P3, P4). */
export type SyncEvent =
  | { type: 'mutation-rejected'; mutation: Mutation; reason: string; message: string }
  | { type: 'mutation-applied'; mutation: Mutation; message: string | null }
  | { type: 'write-conflict'; report: ConflictReport }
  | { type: 'write-rejected'; rejection: WriteRejection };

export type EngineOptions = {
  supabase: SupabaseClient;
  /** The Supabase URL the client talks to; part of every replication identifier (R3). */
  serverUrl: string;
  user: SyncUser | null;
  /** Defaults to the browser's IndexedDB; Node passes fake-indexeddb's factory and key range. */
  indexedDB?: IndexedDbSource;
  /**
   * The RxDB storage (default: Dexie on `indexedDB`). Two-tab tests give each tab its own
   * storage object over one IndexedDB: RxDB refuses a second database of the same name and
   * storage in one JavaScript realm, which two browser tabs never share.
   */
  storage?: RxStorage<unknown, unknown>;
  online$?: Observable<boolean>;
  focus$?: Observable<unknown>;
  clock?: Clock;
  timers?: Timers;
  newId?: () => string;
  backoff?: Backoff;
  pullBatchSize?: number;
  overlapMs?: number;
  retryTimeMs?: number;
  multiInstance?: boolean;
  /**
   * The replicated tables and their schemas (default: `TABLES`). Tests pass a table with a
   * bumped schema version to exercise a migration against a replica made by this one (R3, R4).
   */
  tables?: readonly TableSpec[];
};

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

type Live = {
  spec: TableSpec;
  source: PullSource;
  replication: RxReplicationState<ReplicaDoc, Checkpoint>;
  channel: RealtimeChannel | null;
  first: FirstPull;
};

/** Where a collection's first pull stands (S1). */
type FirstPull = {
  /** It is in the replica: pages count as "caught up" only from then on. */
  stored: boolean;
  /** The pull handler returned a caught-up page since the replication last paused. */
  caughtUpReturned: boolean;
  /** Resolves when `stored` turns true. */
  whenStored: Promise<void>;
  markStored: () => void;
  /** A pull was asked for while this pull was under way and no page has been asked for since. */
  pullWanted: boolean;
};

function newFirstPull(): FirstPull {
  let markStored: () => void = () => undefined;
  const whenStored = new Promise<void>((resolve) => {
    markStored = resolve;
  });
  return { stored: false, caughtUpReturned: false, whenStored, markStored, pullWanted: false };
}

/** The browser's word on the connection; outside a browser (Node tests), online. */
function browserOnlineNow(): boolean {
  return typeof navigator === 'undefined' ? true : navigator.onLine;
}

function browserOnline$(): Observable<boolean> {
  const online$ = new BehaviorSubject(browserOnlineNow());
  if (typeof window !== 'undefined') {
    window.addEventListener('online', () => online$.next(true));
    window.addEventListener('offline', () => online$.next(false));
  }
  return online$;
}

function browserFocus$(): Observable<unknown> {
  const focus$ = new Subject<void>();
  if (typeof document !== 'undefined') {
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') focus$.next();
    });
  }
  return focus$;
}

/** Two server timestamps (any Postgres spelling), compared as instants. */
function isAtLeast(value: unknown, than: unknown): boolean {
  if (typeof than !== 'string') return true;
  if (typeof value !== 'string') return false;
  return Temporal.Instant.compare(Temporal.Instant.from(value), Temporal.Instant.from(than)) >= 0;
}

const STORE_WAIT_MS = 5_000;

/**
 * The local document that records a collection's first completed pull on this device (S2). Its
 * name carries the schema version, like the replication identifier: a version bump re-pulls,
 * and the collection counts as not loaded again until that pull is in.
 */
function pulledMarker(spec: TableSpec): string {
  return `pulled-${spec.name}-v${spec.schema.version}`;
}

/** A running engine's state; every function below takes it explicitly. */
type Engine = {
  readonly opts: EngineOptions;
  readonly clock: Clock;
  readonly db: Replica;
  readonly specs: readonly TableSpec[];
  readonly status: StatusTracker;
  readonly lives: Map<TableName, Live>;
  readonly online: BehaviorSubject<boolean>;
  readonly events$: Subject<SyncEvent>;
  readonly closed$: Subject<void>;
  readonly subs: Subscription[];
  readonly session: Session;
  /** Online/offline switches, one after another. */
  transitions: Promise<void>;
};

/** An engine once its outbox is open. */
type Running = Engine & { readonly outbox: Outbox };

/**
 * A signed-in replica only talks to the server with that user's session. When the token
 * cannot be refreshed (offline, auth briefly down) supabase-js falls back to the anon key,
 * and a request made as anon would be refused for good (a booking as 'not_patient', an
 * edit by RLS): such attempts count as transient instead and wait for the session (A1).
 */
function sessionOf(opts: EngineOptions): Session {
  const session: Session = Object.assign(
    async () => {
      if (!opts.user) return null;
      const { data } = await opts.supabase.auth.getSession();
      if (!data.session || data.session.user.id !== opts.user.id) {
        session.stalled = true;
        throw new TransientSyncError(
          {
            status: 401,
            code: 'no_session',
            message: 'no usable session',
            details: null,
            hint: null,
          },
          'auth',
        );
      }
      return data.session.access_token;
    },
    { stalled: false },
  );
  return session;
}

/** Rows RxDB asks for per pull page (R6). */
function pullBatchSize(opts: EngineOptions): number {
  return Math.min(opts.pullBatchSize ?? MAX_PAGE_ROWS, MAX_PAGE_ROWS);
}

/** Whether the connection is up right now, as `followConnectivity` will first see it. */
function onlineNow(opts: EngineOptions): boolean {
  if (!opts.online$) return browserOnlineNow();
  // A source that has no value yet counts as offline, as no replication starts before it has.
  let online = false;
  opts.online$
    .pipe(take(1))
    .subscribe((value) => (online = value))
    .unsubscribe();
  return online;
}

/**
 * A replica this device has never opened starts with a first sync: its first pages are asked
 * for before it opens, so the server answers while IndexedDB creates its databases (about
 * 150 ms of a doctor's two-second first sync in Chromium, bench/sync). Only then: a replica
 * that exists resumes from its checkpoints, and pages from the start would be wasted. The
 * pull takes such a page only if RxDB asks from the start and it is full (R6), so a wrong
 * guess (another tab creating the replica meanwhile) costs requests, never rows. Offline,
 * nothing is asked (L3).
 */
async function askFirstPages(
  opts: EngineOptions,
  idb: IndexedDbSource,
  specs: readonly TableSpec[],
  session: Session,
): Promise<ReadonlyMap<TableName, PageAhead>> {
  const pages = new Map<TableName, PageAhead>();
  if (!onlineNow(opts)) return pages;
  const fresh = await hasReplicaFiles(idb, opts.user?.id ?? null).then(
    (exists) => !exists,
    () => false,
  );
  if (!fresh) return pages;
  for (const spec of specs) {
    pages.set(
      spec.name,
      askFirstPage({ client: opts.supabase, spec, session }, pullBatchSize(opts)),
    );
  }
  return pages;
}

/** One collection's replication (pull, Realtime-fed stream, push where allowed), not started. */
function prepareReplication(
  e: Engine,
  spec: TableSpec,
  role: Role,
  firstPage: PageAhead | undefined,
): void {
  const { opts } = e;
  const collection = e.db.collections[spec.name] as RxCollection<ReplicaDoc>;
  const identifier = `${spec.name}-v${spec.schema.version}:${opts.user?.id ?? 'visitor'}@${opts.serverUrl}`;
  const first = newFirstPull();
  const source = createPullSource({
    client: opts.supabase,
    spec,
    overlapMs: opts.overlapMs ?? 2_000,
    onPage: ({ rows, caughtUp }) => {
      if (caughtUp) first.caughtUpReturned = true;
      e.status.page(spec.name, rows, caughtUp && first.stored);
    },
    session: e.session,
    firstPage,
  });
  const replication = replicateRxCollection<ReplicaDoc, Checkpoint>({
    collection,
    replicationIdentifier: identifier,
    live: true,
    autoStart: false,
    retryTime: opts.retryTimeMs ?? 5_000,
    waitForLeadership: opts.multiInstance ?? false,
    pull: {
      handler: (checkpoint, batchSize) => {
        // A page asked for from now on is a pull after any request made so far (requestPull).
        first.pullWanted = false;
        return source.handler(checkpoint, batchSize);
      },
      stream$: source.stream$,
      batchSize: pullBatchSize(opts),
    },
    ...(pushesFor(spec, role)
      ? {
          push: {
            batchSize: 10,
            handler: createPushHandler(
              opts.supabase,
              spec,
              (rejection) => e.events$.next({ type: 'write-rejected', rejection }),
              e.session,
            ),
          },
        }
      : {}),
  });
  const live: Live = { spec, source, replication, channel: null, first };
  e.subs.push(
    replication.error$.subscribe((err) => e.status.error(spec.name, err.message)),
    replication.active$.subscribe((active) => {
      e.status.active(spec.name, active);
      if (!active) noteFirstStore(e, live);
    }),
  );
  e.lives.set(spec.name, live);
}

/**
 * A page is reported when it arrives, before RxDB stores it, so "first sync done" waits for the
 * pass that returned a caught-up page to end with the replication running: RxDB ends a pull
 * that finds its replication paused (goOffline) as if the server had nothing more, dropping a
 * page it already fetched, and still calls that its initial replication. Counting that would
 * show "synced" beside an empty replica, on this page and, through the marker, after restarts.
 */
function noteFirstStore(e: Engine, live: Live): void {
  const { first } = live;
  if (first.stored || !first.caughtUpReturned || live.replication.isStoppedOrPaused()) return;
  first.stored = true;
  first.markStored();
  e.status.page(live.spec.name, 0, true);
  // Kept in the replica itself, so it survives restarts and goes with it on sign-out.
  e.db.upsertLocal(pulledMarker(live.spec), { at: e.clock.now() }).catch(() => undefined);
  if (first.pullWanted) requestPull(live);
}

/**
 * Asks a collection to pull now (L2). RxDB 17's downstream drops a RESYNC queued in the same
 * batch right behind documents (Realtime rows, an RPC result just stored): addNewTask shifts
 * it off and breaks without running it. A second RESYNC survives that; when the first one
 * runs, the second is older than the pull it started and RxDB skips it, so no extra request.
 *
 * During this session's first pull the request waits: that pull asks the server again anyway
 * (every pass ends with a fresh short page, R6), and if it asks no page after the request, the
 * pull is made once the first one is stored (noteFirstStore). RxDB's downstream would skip such
 * a RESYNC the same way, but its upstream would not: every RESYNC makes the upstream read all
 * documents changed since its checkpoint, 100 at a time with a meta read and a checkpoint write
 * per batch, even for a pull-only collection, and during a first sync it chases the pull's writes
 * until they stop. The Realtime channels subscribe while the first pages are stored, so a
 * doctor's first sync spent seconds reading back the 10,000 rows it had just written, and was
 * counted done only after that (RxDB's active$ includes the upstream; bench/sync).
 */
function requestPull(live: Live): void {
  if (!live.first.stored) {
    live.first.pullWanted = true;
    return;
  }
  live.first.pullWanted = false;
  live.replication.reSync();
  live.replication.reSync();
}

const REALTIME_ERROR = 'realtime: ';

function subscribeLive(e: Engine, live: Live): void {
  live.channel = subscribeTable({
    client: e.opts.supabase,
    topic: live.replication.replicationIdentifier,
    table: live.spec.name,
    onRow: (row) => live.source.push([row]),
    onSubscribed: () => {
      // The stream is live again: its last failure is no longer true, whether or not the
      // pull below has anything to bring (only a page clears a pull's own error).
      e.status.clearError(live.spec.name, REALTIME_ERROR);
      requestPull(live);
    },
    onError: (message) => e.status.error(live.spec.name, `${REALTIME_ERROR}${message}`),
  });
}

/** Resolves when the replica holds `row` (or a newer version of it), or gives up quietly. */
function store(e: Engine, table: TableName, row: ServerRow | null): Promise<unknown> {
  const live = e.lives.get(table);
  const collection = e.db.collections[table];
  if (!row || !live || !collection || typeof row.id !== 'string') return Promise.resolve();
  live.source.push([row]);
  return firstValueFrom(
    race(
      collection
        .findOne(row.id)
        .$.pipe(
          filter((doc) => doc !== null && isAtLeast(doc.get('server_modified'), row._modified)),
        ),
      timer(STORE_WAIT_MS),
      e.closed$,
    ),
    { defaultValue: null },
  );
}

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
      await Promise.all([store(e, 'agendamentos', appointment), store(e, 'guias', guide)]);
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

function resync(e: Running): void {
  if (!e.online.getValue()) return;
  for (const live of e.lives.values()) requestPull(live);
  e.outbox.wake({ resetBackoff: true });
}

async function goOnline(e: Running): Promise<void> {
  // All at once: each start opens its replication's meta storage first, so starting them one
  // after another held the big collections' first page back by the opens of the ones before.
  await Promise.all(
    [...e.lives.values()].map((live) => {
      if (!live.channel) subscribeLive(e, live);
      return live.replication.start();
    }),
  );
  e.outbox.wake({ resetBackoff: true });
}

async function goOffline(e: Engine): Promise<void> {
  await Promise.all(
    [...e.lives.values()].map(async (live) => {
      await live.replication.pause();
      // A caught-up page returned before the pause may be the one RxDB drops.
      live.first.caughtUpReturned = false;
    }),
  );
}

/**
 * Follows the connection (start or pause every replication) and the window's focus (pull
 * now), and pulls again after a token refresh. Returns how to stop listening to auth.
 */
function followConnectivity(e: Running): () => void {
  e.subs.push(
    (e.opts.online$ ?? browserOnline$()).pipe(distinctUntilChanged()).subscribe((isOnline) => {
      e.online.next(isOnline);
      e.transitions = e.transitions
        .then(() => (isOnline ? goOnline(e) : goOffline(e)))
        .catch((error: unknown) => e.status.error('outbox', String(error)));
    }),
    (e.opts.focus$ ?? browserFocus$()).subscribe(() => resync(e)),
  );
  // A refreshed token resumes what waited for one; never sign out here (A1, A2). Only what
  // waited: each request asks supabase-js for the session, which refreshes a token it counts
  // as expiring, so resyncing after every refresh turns a token that is always "expiring" (a
  // short life, a device clock far ahead) into a refresh storm (A4).
  const auth = e.opts.supabase.auth.onAuthStateChange((event) => {
    if (event === 'SIGNED_IN' || (event === 'TOKEN_REFRESHED' && e.session.stalled)) {
      e.session.stalled = false;
      queueMicrotask(() => resync(e));
    }
  });
  return () => auth.data.subscription.unsubscribe();
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

function pulledOnce$(e: Engine, table: TableName): Observable<boolean> {
  const spec = e.specs.find((s) => s.name === table);
  if (!spec) return of(false);
  return e.db.getLocal$(pulledMarker(spec)).pipe(
    map((doc) => doc !== null),
    distinctUntilChanged(),
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
  const session = sessionOf(opts);
  const firstPages = await askFirstPages(opts, idb, specs, session);
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
  for (const spec of specs) prepareReplication(engine, spec, role, firstPages.get(spec.name));
  const e: Running = Object.assign(engine, { outbox: await openEngineOutbox(engine) });

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
    pulledOnce$: (table) => pulledOnce$(e, table),
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
