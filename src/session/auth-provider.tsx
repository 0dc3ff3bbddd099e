import {
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { AuthChangeEvent, AuthError, Session, User } from '@supabase/supabase-js';
import * as v from 'valibot';
import { mapServerError } from '@/domain/errors/map-server-error.ts';
import { env } from '@/lib/config.ts';
import { afterFirstPaint } from '@/lib/first-paint.ts';
import type { AppSupabaseClient } from '@/lib/supabase.ts';
import { whenSupabaseCreated } from '@/lib/supabase-created.ts';
import { defaultAuthStorageKey, loadSupabase } from '@/lib/supabase-loader.ts';
import { showToast } from '@/lib/toast.ts';
import {
  AuthContext,
  SESSION_EXPIRED_MESSAGE,
  type AuthContextValue,
  type AuthState,
} from './auth-context.ts';
import {
  fetchProfile,
  PROFILE_ATTEMPTS_FIRST,
  PROFILE_ATTEMPTS_LATER,
  readCachedProfile,
  RoleSchema,
  writeCachedProfile,
  type Profile,
  type Role,
} from './profile.ts';
import { announceSignIn } from './sign-in-announcement.ts';
import { forgetStoredSession, readStoredSession, readStoredSessionAt } from './stored-session.ts';
import { SupabaseContext } from './client-context.ts';

const SIGNED_OUT: AuthState = {
  loading: false,
  session: null,
  user: null,
  profile: null,
  role: null,
};

function roleOf(profile: Profile | null, user: User): Role | null {
  if (profile) return profile.role;
  const fromMetadata = v.safeParse(RoleSchema, user.user_metadata?.role);
  return fromMetadata.success ? fromMetadata.output : null;
}

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

/** Set before 'Sair' signs out, so every tab tells 'Sair' apart from a refused session. */
const SIGN_OUT_MARK = 'saude-ja:signed-out-by-user';

function markSignOut(userId: string | null, set: boolean): void {
  try {
    if (set && userId) localStorage.setItem(SIGN_OUT_MARK, userId);
    else localStorage.removeItem(SIGN_OUT_MARK);
  } catch {
    // Without storage only this tab knows; another tab then says the session expired.
  }
}

function signedOutByThisPerson(userId: string): boolean {
  try {
    return localStorage.getItem(SIGN_OUT_MARK) === userId;
  } catch {
    return false;
  }
}

/** The state for a known person; the profile comes from the cache until it is read again. */
function signedInState(session: Session): AuthState {
  const cached = readCachedProfile(session.user.id);
  return {
    loading: cached === null,
    session,
    user: session.user,
    profile: cached,
    role: roleOf(cached, session.user),
  };
}

/**
 * Owns the session and the person's profile; every screen reads them through `useAuth()`.
 *
 * Who is signed in is a local fact (sync/SPEC.md A2): it is read from the stored session on
 * the first render, whatever the token's expiry and without the network, and only two things
 * end it — the person's own 'Sair', or supabase-js removing the session because the auth
 * server refused its refresh token (an answer; a network failure keeps the session stored).
 */
export function AuthProvider({ children, client: clientProp }: AuthProviderProps) {
  const inherited = useContext(SupabaseContext);
  /** A test's client; without one, the app's own, loaded after the first paint. */
  const given = clientProp ?? inherited;
  const [client, setClient] = useState<AppSupabaseClient | null>(given);
  const [initial] = useState(() => (given ? readStoredSession(given) : readAppStoredSession()));
  // Nothing stored in the app's (synchronous) storage is a visitor: known at once, so the
  // header draws its buttons on the first paint. A given client's storage may answer
  // asynchronously, and a URL with tokens is a sign-in: supabase-js's events decide those.
  const [state, setState] = useState<AuthState>(() =>
    initial
      ? signedInState(initial)
      : given || urlCarriesAuth()
        ? { ...SIGNED_OUT, loading: true }
        : SIGNED_OUT,
  );
  const signOutRequested = useRef(false);
  /** The auth event handler, also run by an offline 'Sair', which supabase-js does not hear. */
  const handleRef = useRef<((event: AuthChangeEvent, session: Session | null) => void) | null>(
    null,
  );
  const userRef = useRef<User | null>(initial?.user ?? null);

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

  const loadProfile = useCallback(
    async (user: User, attempts: number) => {
      const result = await fetchProfile(client ?? (await loadSupabase()), user.id, attempts);
      if (userRef.current?.id !== user.id) return;
      setState((current) => {
        let profile: Profile | null;
        if (result.kind === 'found') profile = result.profile;
        else if (result.kind === 'unreachable') profile = current.profile;
        else profile = null;
        if (result.kind !== 'unreachable') writeCachedProfile(profile, user.id);
        return { ...current, loading: false, profile, role: roleOf(profile, user) };
      });
    },
    [client],
  );

  // The stored person's profile is read again in the background, once the client is there;
  // offline the cache stands.
  const clientReady = client !== null;
  useEffect(() => {
    if (initial && clientReady) void loadProfile(initial.user, PROFILE_ATTEMPTS_FIRST);
  }, [initial, clientReady, loadProfile]);

  useEffect(() => {
    function signedOut(previous: User | null) {
      // supabase-js reports one removal twice when it happens during its start-up (SIGNED_OUT
      // and INITIAL_SESSION null): the second must not erase why the first signed out.
      if (!previous) {
        setState((current) => (current.loading ? { ...current, loading: false } : current));
        return;
      }
      userRef.current = null;
      const byUser = signOutRequested.current || signedOutByThisPerson(previous.id);
      signOutRequested.current = false;
      if (!byUser) {
        setState({
          ...SIGNED_OUT,
          expired: { userId: previous.id, email: previous.email ?? null },
        });
        showToast({ tone: 'error', title: SESSION_EXPIRED_MESSAGE });
        return;
      }
      setState({ ...SIGNED_OUT, signedOutByUser: byUser });
    }

    /** The stored session, read from the client's storage (the app's own before it loads). */
    const readStored = () => (client ? readStoredSession(client) : readAppStoredSession());

    function handle(event: AuthChangeEvent, session: Session | null) {
      const previous = userRef.current;
      if (!session) {
        // supabase-js reports "no session" when it could not refresh an expiring token (no
        // network, auth unreachable) although the session is still stored: the person is
        // still signed in. Only a removed session (SIGNED_OUT, storage empty) ends it.
        const stored = event === 'SIGNED_OUT' ? null : readStored();
        if (!stored) {
          signedOut(previous);
          return;
        }
        if (previous?.id === stored.user.id) return;
        session = stored;
      }
      const user = session.user;
      userRef.current = user;
      announceSignIn(event, user, previous === null);
      if (previous?.id !== user.id) {
        markSignOut(null, false);
        setState(signedInState(session));
        void loadProfile(user, PROFILE_ATTEMPTS_FIRST);
        return;
      }
      const refreshed = session;
      setState((current) => ({ ...current, session: refreshed, user }));
      if (event === 'SIGNED_IN' || event === 'USER_UPDATED') {
        void loadProfile(user, PROFILE_ATTEMPTS_LATER);
      }
    }
    handleRef.current = handle;
    if (!client) return;
    const { data } = client.auth.onAuthStateChange((event, session) => {
      // supabase-js notifies while holding its auth lock; calling it back synchronously from
      // here (the profile read needs the token) would deadlock.
      setTimeout(() => handle(event, session), 0);
    });
    return () => data.subscription.unsubscribe();
  }, [client, loadProfile]);

  const signOut = useCallback(async () => {
    signOutRequested.current = true;
    markSignOut(userRef.current?.id ?? null, true);
    const active = client ?? (await loadSupabase());
    if (typeof navigator !== 'undefined' && !navigator.onLine) {
      await forgetStoredSession(active);
      setTimeout(() => handleRef.current?.('SIGNED_OUT', null), 0);
      return;
    }
    const { error } = await active.auth.signOut();
    if (error && !isSessionGone(error)) {
      console.error('Sign-out failed on the server; clearing the local session.', error);
      // Offline or server failure: still forget the session on this device.
      await active.auth.signOut({ scope: 'local' });
    }
    // A client loaded just now may not be subscribed yet to hear its own SIGNED_OUT.
    if (!client) setTimeout(() => handleRef.current?.('SIGNED_OUT', null), 0);
  }, [client]);

  const refreshProfile = useCallback(async () => {
    const user = state.user;
    if (user) await loadProfile(user, PROFILE_ATTEMPTS_LATER);
  }, [state.user, loadProfile]);

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
