import {
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import {
  isAuthSessionMissingError,
  type AuthChangeEvent,
  type AuthError,
  type Session,
  type User,
} from '@supabase/supabase-js';
import * as v from 'valibot';
import { getSupabase, type AppSupabaseClient } from '@/lib/supabase.ts';
import { AuthContext, type AuthContextValue, type AuthState } from './auth-context.ts';
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
import { SupabaseContext } from './supabase-context.ts';

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

function isSessionGone(error: AuthError): boolean {
  return isAuthSessionMissingError(error) || error.code === 'session_not_found';
}

type AuthProviderProps = { children: ReactNode; client?: AppSupabaseClient };

/** Owns the session and the person's profile; every screen reads them through `useAuth()`. */
export function AuthProvider({ children, client: clientProp }: AuthProviderProps) {
  const inherited = useContext(SupabaseContext);
  const client = clientProp ?? inherited ?? getSupabase();
  const [state, setState] = useState<AuthState>({ ...SIGNED_OUT, loading: true });
  const signOutRequested = useRef(false);
  const userIdRef = useRef<string | null>(null);

  const loadProfile = useCallback(
    async (user: User, attempts: number) => {
      const result = await fetchProfile(client, user.id, attempts);
      if (userIdRef.current !== user.id) return;
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

  useEffect(() => {
    function handle(event: AuthChangeEvent, session: Session | null) {
      const user = session?.user ?? null;
      const previousId = userIdRef.current;
      userIdRef.current = user?.id ?? null;
      if (!user || !session) {
        setState({ ...SIGNED_OUT, signedOutByUser: signOutRequested.current });
        signOutRequested.current = false;
        return;
      }
      announceSignIn(event, user, previousId === null);
      if (previousId !== user.id) {
        const cached = readCachedProfile(user.id);
        setState({
          loading: cached === null,
          session,
          user,
          profile: cached,
          role: roleOf(cached, user),
        });
        void loadProfile(user, PROFILE_ATTEMPTS_FIRST);
        return;
      }
      setState((current) => ({ ...current, session, user }));
      if (event === 'SIGNED_IN' || event === 'USER_UPDATED') {
        void loadProfile(user, PROFILE_ATTEMPTS_LATER);
      }
    }
    const { data } = client.auth.onAuthStateChange((event, session) => {
      // supabase-js notifies while holding its auth lock; calling it back synchronously from
      // here (the profile read needs the token) would deadlock.
      setTimeout(() => handle(event, session), 0);
    });
    return () => data.subscription.unsubscribe();
  }, [client, loadProfile]);

  const signOut = useCallback(async () => {
    signOutRequested.current = true;
    const { error } = await client.auth.signOut();
    if (error && !isSessionGone(error)) {
      console.error('Sign-out failed on the server; clearing the local session.', error);
      // Offline or server failure: still forget the session on this device.
      await client.auth.signOut({ scope: 'local' });
    }
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
