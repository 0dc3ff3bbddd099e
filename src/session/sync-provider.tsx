import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { Observable } from 'rxjs';
import type { SyncEngine, SyncUser } from '../../sync/index.ts';
import { useAuth } from '@/session/auth-context.ts';
import { useSupabase } from '@/session/supabase-context.ts';
import { env } from '@/lib/config.ts';

/** The engine of the current session and whom it serves; `engine` is null while it opens. */
export type SyncSession = {
  engine: SyncEngine | null;
  user: SyncUser | null;
  /** True when opening the replica failed (e.g. storage blocked); screens show their error. */
  failed: boolean;
};

const CLOSED: SyncSession = { engine: null, user: null, failed: false };

/** `demand` asks the provider to open the replica; tests may provide a session without it. */
type SyncContextValue = SyncSession & { demand?: () => void };

export const SyncContext = createContext<SyncContextValue>(CLOSED);

/** The session for a screen that reads or writes data: using it opens the replica. */
export function useSyncSession(): SyncSession {
  const session = useContext(SyncContext);
  const { demand } = session;
  useEffect(() => demand?.(), [demand]);
  return session;
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

function keyOf(user: SyncUser | null): string {
  return user ? `${user.role}:${user.id}` : 'visitor';
}

function acquire(user: SyncUser | null, open: (user: SyncUser | null) => Promise<SyncEngine>) {
  const key = keyOf(user);
  if (current?.key === key) return current.engine;
  const previous = current;
  // Signing out deletes the person's replica and queue (R1); a visitor's cache is kept.
  const released = previous
    ? previous.engine.then(
        (e) => (previous.user && !user ? e.signOut() : e.close()),
        () => undefined,
      )
    : Promise.resolve();
  const engine = released.then(() => open(user));
  current = { key, user, engine };
  return engine;
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
  const { loading, user, role } = useAuth();
  const supabase = useSupabase();
  const [session, setSession] = useState<SyncSession>(CLOSED);
  const [demanded, setDemanded] = useState(false);
  const demand = useCallback(() => setDemanded(true), []);
  const signedIn = Boolean(user && role);
  const key = loading ? null : keyOf(user && role ? { id: user.id, role } : null);
  const wanted = key !== null && (signedIn || demanded || current?.key === key);

  useEffect(() => {
    if (key === null || !wanted) return;
    const forUser = userOfKey(key);
    let active = true;
    // The engine (RxDB, Dexie, rxjs) loads as its own chunk after the first paint: the first
    // screen needs none of it, and it is most of the app's JavaScript. Tabs of one person share
    // the replica and its queue; only the leader tab sends the queue (sync/SPEC.md Q1).
    acquire(forUser, (u) =>
      import('../../sync/index.ts').then(({ createSyncEngine }) =>
        createSyncEngine({
          supabase,
          serverUrl: serverUrl ?? env.supabaseUrl,
          user: u,
          multiInstance: true,
        }),
      ),
    ).then(
      (engine) => {
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
  }, [key, wanted, supabase, serverUrl]);

  const visible = key !== null && keyOf(session.user) === key ? session : CLOSED;
  const value = useMemo(() => ({ ...visible, demand }), [visible, demand]);
  return <SyncContext.Provider value={value}>{children}</SyncContext.Provider>;
}

/**
 * The latest value of an observable, re-rendering on every emission. `initial` is returned
 * until the first emission (pass `undefined` to tell "not loaded yet" apart). Memoise `obs$`.
 */
export function useObservable<T, I = T>(obs$: Observable<T> | null, initial: I): T | I {
  const latest = useRef<{ source: Observable<T>; value: T } | null>(null);
  const initialRef = useRef(initial);
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
    latest.current && latest.current.source === obs$ ? latest.current.value : initialRef.current;
  return useSyncExternalStore(subscribe.current.fn, snapshot, snapshot);
}
