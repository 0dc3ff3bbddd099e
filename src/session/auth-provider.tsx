import {
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { AuthError, Session } from '@supabase/supabase-js';
import { mapServerError } from '@/domain/errors/map-server-error.ts';
import { env } from '@/lib/config.ts';
import { afterFirstPaint } from '@/lib/first-paint.ts';
import type { AppSupabaseClient } from '@/lib/supabase.ts';
import { whenSupabaseCreated } from '@/lib/supabase-created.ts';
import { defaultAuthStorageKey, loadSupabase } from '@/lib/supabase-loader.ts';
import { showToast } from '@/lib/toast.ts';
import { AuthContext, SESSION_EXPIRED_MESSAGE, type AuthContextValue } from './auth-context.ts';
import { AuthMachine, type AuthPorts } from './auth-machine.ts';
import {
  fetchProfile,
  PROFILE_ATTEMPTS_FIRST,
  readCachedProfile,
  writeCachedProfile,
} from './profile.ts';
import { announceSignIn } from './sign-in-announcement.ts';
import { markSignOut, signedOutByThisPerson } from './sign-out-mark.ts';
import { forgetStoredSession, readStoredSession, readStoredSessionAt } from './stored-session.ts';
import { SupabaseContext } from './client-context.ts';

/**
 * The session is already gone on the server. The mapper reads errors by name and code, so
 * supabase-js's runtime (not loaded up front) is not needed for it.
 */
function isSessionGone(error: AuthError): boolean {
  const { code } = mapServerError(error);
  return code === 'not-authenticated' || code === 'session-expired';
}

/**
 * The app's own stored session, read before supabase-js is loaded: its client keeps the
 * session in localStorage under the default key.
 */
function readAppStoredSession(): Session | null {
  let storage: Storage | undefined;
  try {
    storage = globalThis.localStorage;
  } catch {
    storage = undefined;
  }
  return readStoredSessionAt(storage, defaultAuthStorageKey(env.supabaseUrl));
}

/**
 * An e-mail link's tokens in the URL (implicit flow; what auth-js's `detectSessionInUrl`
 * looks for): supabase-js must load at once to sign the person in and clean the URL.
 */
function urlCarriesAuth(): boolean {
  if (typeof location === 'undefined') return false;
  return /[#?&](access_token|error_description)=/.test(`${location.search}${location.hash}`);
}

type AuthProviderProps = { children: ReactNode; client?: AppSupabaseClient };

/** The machine's reads and effects, on the client of the moment (the app's own before it loads). */
function appPorts(client: { current: AppSupabaseClient | null }): AuthPorts {
  return {
    readStored: () => (client.current ? readStoredSession(client.current) : readAppStoredSession()),
    fetchProfile: async (user, attempts) =>
      fetchProfile(client.current ?? (await loadSupabase()), user.id, attempts),
    readCachedProfile,
    writeCachedProfile,
    markSignOut,
    signedOutByUser: signedOutByThisPerson,
    announceSignIn,
    sessionExpired: () => showToast({ tone: 'error', title: SESSION_EXPIRED_MESSAGE }),
  };
}

/**
 * Owns the session and the person's profile; every screen reads them through `useAuth()`.
 * The transitions are `AuthMachine`'s (auth-machine.ts: only 'Sair' or the server refusing
 * the session signs out); this layer loads supabase-js, feeds the machine its events and
 * signs out.
 */
export function AuthProvider({ children, client: clientProp }: AuthProviderProps) {
  const inherited = useContext(SupabaseContext);
  /** A test's client; without one, the app's own, loaded after the first paint. */
  const given = clientProp ?? inherited;
  const [client, setClient] = useState<AppSupabaseClient | null>(given);
  const clientRef = useRef(client);
  const [initial] = useState(() => (given ? readStoredSession(given) : readAppStoredSession()));
  // Nothing stored in the app's (synchronous) storage is a visitor: known at once, so the
  // header draws its buttons on the first paint. A given client's storage may answer
  // asynchronously, and a URL with tokens is a sign-in: supabase-js's events decide those.
  const [machine] = useState(
    () =>
      new AuthMachine(appPorts(clientRef), {
        stored: initial,
        pending: Boolean(given) || urlCarriesAuth(),
      }),
  );
  const state = useSyncExternalStore(machine.subscribe, machine.getState);

  // supabase-js is about a quarter of the first screen's JavaScript, so it is not loaded up
  // front: a screen that talks to the backend creates the client (the login form, the replica)
  // and hands it over; a signed-in person's client loads once the first screen is painted, to
  // refresh the token and the profile; an e-mail link's tokens need it at once.
  const signedInAtStart = initial !== null;
  useEffect(() => {
    if (given) return;
    const stop = whenSupabaseCreated(setClient);
    const load = () =>
      void loadSupabase().catch((error: unknown) =>
        console.error('Could not load the Supabase client.', error),
      );
    if (urlCarriesAuth()) {
      load();
      return stop;
    }
    if (signedInAtStart) {
      const cancel = afterFirstPaint(load);
      return () => {
        stop();
        cancel();
      };
    }
    // A visitor has nothing for supabase-js to do until a screen needs it, or until another
    // tab signs in (its session lands in the shared storage).
    const key = defaultAuthStorageKey(env.supabaseUrl);
    const onStorage = (event: StorageEvent) => {
      if (event.key === key && event.newValue) load();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      stop();
      window.removeEventListener('storage', onStorage);
    };
  }, [given, signedInAtStart]);

  useEffect(() => {
    clientRef.current = client;
    if (!client) return;
    // The stored person's profile is read again in the background, once the client is there;
    // offline the cache stands.
    if (initial) void machine.loadProfile(initial.user, PROFILE_ATTEMPTS_FIRST);
    const { data } = client.auth.onAuthStateChange((event, session) => {
      // supabase-js notifies while holding its auth lock; calling it back synchronously from
      // here (the profile read needs the token) would deadlock.
      setTimeout(() => machine.handle(event, session), 0);
    });
    return () => data.subscription.unsubscribe();
  }, [client, initial, machine]);

  const signOut = useCallback(async () => {
    machine.signOutRequestedByUser();
    const active = client ?? (await loadSupabase());
    if (typeof navigator !== 'undefined' && !navigator.onLine) {
      // supabase-js does not hear a session forgotten this way: the machine is told itself.
      await forgetStoredSession(active);
      setTimeout(() => machine.handle('SIGNED_OUT', null), 0);
      return;
    }
    const { error } = await active.auth.signOut();
    if (error && !isSessionGone(error)) {
      console.error('Sign-out failed on the server; clearing the local session.', error);
      // Offline or server failure: still forget the session on this device.
      await active.auth.signOut({ scope: 'local' });
    }
    // A client loaded just now may not be subscribed yet to hear its own SIGNED_OUT.
    if (!client) setTimeout(() => machine.handle('SIGNED_OUT', null), 0);
  }, [client, machine]);

  const refreshProfile = useCallback(() => machine.refreshProfile(), [machine]);

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, signOut, refreshProfile }),
    [state, signOut, refreshProfile],
  );
  return (
    <SupabaseContext.Provider value={client}>
      <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
    </SupabaseContext.Provider>
  );
}
