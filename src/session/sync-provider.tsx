import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { Observable } from 'rxjs';
import type { SyncEngine, SyncUser } from '../../sync/index.ts';
import { hasReplica } from '../../sync/presence.ts';
import { useAuth } from '@/session/auth-context.ts';
import { env } from '@/lib/config.ts';
import { afterFirstPaint } from '@/lib/first-paint.ts';
import { loadSupabase } from '@/lib/supabase-loader.ts';
import { useProvidedSupabase } from './client-context.ts';
import { clearKeptQueue, readKeptQueue, writeKeptQueue } from './kept-queue.ts';
import {
  clearReplicaDeletion,
  readReplicaDeletions,
  recordReplicaDeletion,
} from './replica-deletions.ts';
import { requestPersistentStorage } from './storage-persistence.ts';

/** The engine of the current session and whom it serves; `engine` is null while it opens. */
export type SyncSession = {
  engine: SyncEngine | null;
  user: SyncUser | null;
  /** True when opening the replica failed (e.g. storage blocked); screens show their error. */
  failed: boolean;
};

const CLOSED: SyncSession = { engine: null, user: null, failed: false };

/** `demand` asks the provider to open the replica; tests may provide a session without it. */
type SyncContextValue = SyncSession & {
  demand?: () => void;
  /** A screen uses the session, even before it asks for the replica; the chrome keeps room. */
  expect?: () => void;
  expected?: boolean;
};

export const SyncContext = createContext<SyncContextValue>(CLOSED);

/** The session for a screen that reads or writes data: using it opens the replica. */
export function useSyncSession(): SyncSession {
  return useSyncSessionWhen(true);
}

/**
 * The session, opening the replica only once `wanted`: a screen that paints first from a small
 * network read asks for the engine (most of the app's JavaScript) after that paint.
 */
export function useSyncSessionWhen(wanted: boolean): SyncSession {
  const session = useContext(SyncContext);
  const { demand } = session;
  const { expect } = session;
  // Before the first paint: the sync line's room is then there from the start, and the page
  // below it does not move down when it appears (Lighthouse counted a layout shift of 0.03).
  useLayoutEffect(() => expect?.(), [expect]);
  useEffect(() => {
    if (wanted) demand?.();
  }, [demand, wanted]);
  return session;
}

/** For app chrome: whether a screen on this page uses (or will open) the replica. */
export function useSyncExpected(): boolean {
  return useContext(SyncContext).expected ?? false;
}

export function useSyncEngine(): SyncEngine | null {
  return useSyncSession().engine;
}

/** For app chrome such as the sync indicator: the engine if a screen opened it, never opening one. */
export function useOpenSyncEngine(): SyncEngine | null {
  return useContext(SyncContext).engine;
}

type Holder = { key: string; user: SyncUser | null; engine: Promise<SyncEngine> };

/**
 * One engine per page life, kept outside React: StrictMode mounts effects twice, and an
 * engine closed by the first cleanup would still be releasing its IndexedDB when the second
 * mount opens it again. The holder is replaced only when the person changes.
 */
let current: Holder | null = null;
/** The last release of an engine; the next one opens only after it (same IndexedDB names). */
let released: Promise<void> = Promise.resolve();

/**
 * What becomes of the engine of a person who leaves: 'Sair' deletes their replica and queue
 * (R1); a session the server refused keeps them for that person's next sign-in; anything else
 * (a visitor's cache, another person signing in straight away) just closes.
 */
type Handover = { kind: 'delete' } | { kind: 'keep'; email: string | null } | { kind: 'close' };

function keyOf(user: SyncUser | null): string {
  return user ? `${user.role}:${user.id}` : 'visitor';
}

async function handOver(engine: SyncEngine, user: SyncUser | null, handover: Handover) {
  if (handover.kind === 'delete') {
    await engine.signOut();
    if (user) clearReplicaDeletion(user.id);
    return;
  }
  if (handover.kind === 'keep' && user) {
    writeKeptQueue({ userId: user.id, email: handover.email, pending: engine.pendingCount() });
  }
  return engine.close();
}

function release(handover: Handover): void {
  const previous = current;
  if (!previous) return;
  current = null;
  // Recorded now, before the page can go away: the deletion itself takes a while.
  if (handover.kind === 'delete' && previous.user) recordReplicaDeletion(previous.user.id);
  released = released
    .then(() => previous.engine)
    .then(
      (engine) => handOver(engine, previous.user, handover),
      () => undefined,
    )
    .catch((error: unknown) => console.error('Could not release the local replica.', error));
}

/** Deletions that 'Sair' started in an earlier page life and could not finish. */
async function finishReplicaDeletions(): Promise<void> {
  const unfinished = readReplicaDeletions();
  if (unfinished.length === 0) return;
  const { deleteReplica } = await import('../../sync/index.ts');
  for (const userId of unfinished) {
    await deleteReplica(userId);
    clearReplicaDeletion(userId);
  }
}

/**
 * Before a signed-in person's replica opens: a replica kept for someone else after a refused
 * session is deleted (the sign-in form said how many changes that discards); the person's
 * own is simply reopened, and its queue is sent.
 */
async function prepareFor(user: SyncUser | null): Promise<void> {
  await finishReplicaDeletions();
  const kept = readKeptQueue();
  if (!user || !kept) return;
  if (kept.userId !== user.id) {
    const { deleteReplica } = await import('../../sync/index.ts');
    await deleteReplica(kept.userId);
  }
  clearKeptQueue();
}

/**
 * When a person's engine may load. With their replica on the device, at once: their data is
 * on screen from it, offline too. Without one, after the first screen's paint: that screen
 * shows a spinner or paints from a network read of its own (the doctor's dashboard,
 * src/features/doctor-dashboard/first-consultas.ts), and the engine's chunk, most of the
 * app's JavaScript, would only compete with it. A test's client opens at once, as the auth
 * provider loads it.
 */
async function openingTime(user: SyncUser | null, given: boolean): Promise<void> {
  if (!user || given || (await hasReplica(user.id))) return;
  await new Promise<void>((resolve) => afterFirstPaint(resolve));
}

function acquire(
  user: SyncUser | null,
  open: (user: SyncUser | null) => Promise<SyncEngine>,
  handover: Handover,
) {
  const key = keyOf(user);
  if (current?.key === key) return current.engine;
  release(handover);
  const engine = released.then(() => prepareFor(user)).then(() => open(user));
  current = { key, user, engine };
  return engine;
}

/** Queued changes of the signed-in person not yet sent; 0 without a signed-in replica. */
export async function pendingChanges(): Promise<number> {
  const holder = current;
  if (!holder?.user) return 0;
  try {
    return (await holder.engine).pendingCount();
  } catch {
    return 0;
  }
}

function userOfKey(key: string): SyncUser | null {
  const [role, id] = key.split(':');
  return (role === 'paciente' || role === 'medico') && id ? { id, role } : null;
}

type SyncProviderProps = {
  children: ReactNode;
  /** The API the client talks to; defaults to VITE_SUPABASE_URL (tests pass their platform's). */
  serverUrl?: string;
};

/**
 * Opens the sync engine for whoever uses the app: the patient's or doctor's own replica as soon
 * as they are signed in (so their data is there when the connection drops), and a visitor's
 * public replica only once a screen needs data — the landing page loads none of the engine.
 */
export function SyncProvider({ children, serverUrl }: SyncProviderProps) {
  const { loading, user, role, expired } = useAuth();
  const provided = useProvidedSupabase();
  const [session, setSession] = useState<SyncSession>(CLOSED);
  const [demanded, setDemanded] = useState(false);
  const demand = useCallback(() => setDemanded(true), []);
  const [expectedByScreen, setExpected] = useState(false);
  const expect = useCallback(() => setExpected(true), []);
  const signedIn = Boolean(user && role);
  const key = loading ? null : keyOf(user && role ? { id: user.id, role } : null);
  const wanted = key !== null && (signedIn || demanded || current?.key === key);

  const expiredUserId = expired?.userId ?? null;
  const expiredEmail = expired?.email ?? null;

  useEffect(() => {
    if (key === null) return;
    const forUser = userOfKey(key);
    const leaving = current?.user ?? null;
    const handover: Handover =
      leaving && !forUser
        ? leaving.id === expiredUserId
          ? { kind: 'keep', email: expiredEmail }
          : { kind: 'delete' }
        : { kind: 'close' };
    // A person who leaves is released at once, even when no screen wants the visitor's data.
    if (!wanted) {
      if (leaving && current?.key !== key) release(handover);
      return;
    }
    let active = true;
    // The engine (RxDB, Dexie, rxjs) loads as its own chunk, when `openingTime` says: it is
    // most of the app's JavaScript. Tabs of one person share
    // the replica and its queue; only the leader tab sends the queue (sync/SPEC.md Q1).
    // supabase-js, when the session provider has not loaded it yet, comes alongside.
    acquire(
      forUser,
      (u) =>
        openingTime(u, provided !== null)
          .then(() => Promise.all([provided ?? loadSupabase(), import('../../sync/index.ts')]))
          .then(([supabase, { createSyncEngine }]) =>
            createSyncEngine({
              supabase,
              serverUrl: serverUrl ?? env.supabaseUrl,
              user: u,
              multiInstance: true,
            }),
          ),
      handover,
    ).then(
      (engine) => {
        if (forUser) void requestPersistentStorage();
        if (active) setSession({ engine, user: forUser, failed: false });
      },
      (error: unknown) => {
        console.error('Could not open the local replica.', error);
        if (active) setSession({ engine: null, user: forUser, failed: true });
      },
    );
    return () => {
      active = false;
    };
  }, [key, wanted, provided, serverUrl, expiredUserId, expiredEmail]);

  const visible = key !== null && keyOf(session.user) === key ? session : CLOSED;
  const expected = expectedByScreen || wanted;
  const value = useMemo(
    () => ({ ...visible, demand, expect, expected }),
    [visible, demand, expect, expected],
  );
  return <SyncContext.Provider value={value}>{children}</SyncContext.Provider>;
}

/**
 * What `read` makes of an observable's latest emission (null before the first), as React
 * state: a re-render whenever that result changes. Memoise `obs$`.
 */
function useObservableSnapshot<T, R>(
  obs$: Observable<T> | null,
  read: (latest: { value: T } | null) => R,
): R {
  const latest = useRef<{ source: Observable<T>; value: T } | null>(null);
  const subscribe = useRef<{
    source: Observable<T> | null;
    fn: (notify: () => void) => () => void;
  } | null>(null);
  if (subscribe.current?.source !== obs$) {
    subscribe.current = {
      source: obs$,
      fn: (notify) => {
        if (!obs$) return () => undefined;
        const sub = obs$.subscribe((value) => {
          latest.current = { source: obs$, value };
          notify();
        });
        return () => sub.unsubscribe();
      },
    };
  }
  const snapshot = () =>
    read(latest.current && latest.current.source === obs$ ? latest.current : null);
  return useSyncExternalStore(subscribe.current.fn, snapshot, snapshot);
}

/**
 * The latest value of an observable, re-rendering on every emission. `initial` is returned
 * until the first emission (pass `undefined` to tell "not loaded yet" apart). Memoise `obs$`.
 */
export function useObservable<T, I = T>(obs$: Observable<T> | null, initial: I): T | I {
  const initialRef = useRef(initial);
  return useObservableSnapshot(obs$, (latest) => (latest ? latest.value : initialRef.current));
}

/**
 * `select` of an observable's latest value (`initial` before the first), re-rendering only
 * when that changes: the engine's status emits on every page a sync pulls, and a screen that
 * reads one flag or message of it renders nothing for the others. Without rxjs's operators,
 * which a first paint would otherwise download before the engine. `select` must return a
 * primitive (or the same object) for an unchanged answer.
 */
export function useObservableSelect<T, S>(
  obs$: Observable<T> | null,
  select: (value: T) => S,
  initial: S,
): S {
  return useObservableSnapshot(obs$, (latest) => (latest ? select(latest.value) : initial));
}
