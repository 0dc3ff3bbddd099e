import {
  createContext,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { Observable } from 'rxjs';
import { createSyncEngine, type SyncEngine, type SyncUser } from '../../sync/index.ts';
import { useAuth } from '@/features/auth/auth-context.ts';
import { useSupabase } from '@/features/auth/supabase-context.ts';
import { env } from '@/lib/config.ts';

/** The engine of the current session and whom it serves; `engine` is null while it opens. */
export type SyncSession = {
  engine: SyncEngine | null;
  user: SyncUser | null;
  /** True when opening the replica failed (e.g. storage blocked); screens show their error. */
  failed: boolean;
};

const CLOSED: SyncSession = { engine: null, user: null, failed: false };

export const SyncContext = createContext<SyncSession>(CLOSED);

export function useSyncSession(): SyncSession {
  return useContext(SyncContext);
}

export function useSyncEngine(): SyncEngine | null {
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
 * Opens the sync engine for whoever uses the app: a visitor's public replica when signed out,
 * the patient's or doctor's own after sign-in.
 */
export function SyncProvider({ children, serverUrl }: SyncProviderProps) {
  const { loading, user, role } = useAuth();
  const supabase = useSupabase();
  const [session, setSession] = useState<SyncSession>(CLOSED);
  const key = loading ? null : keyOf(user && role ? { id: user.id, role } : null);

  useEffect(() => {
    if (key === null) return;
    const forUser = userOfKey(key);
    let active = true;
    acquire(forUser, (u) =>
      createSyncEngine({ supabase, serverUrl: serverUrl ?? env.supabaseUrl, user: u }),
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
  }, [key, supabase, serverUrl]);

  const visible = key !== null && keyOf(session.user) === key ? session : CLOSED;
  return <SyncContext.Provider value={visible}>{children}</SyncContext.Provider>;
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
