import { createContext, useContext } from 'react';
import type { Session, User } from '@supabase/supabase-js';
import type { Profile, Role } from './profile.ts';

export type AuthState = {
  /** True until the stored session is known and, with a session, the first profile read ends. */
  loading: boolean;
  session: Session | null;
  user: User | null;
  profile: Profile | null;
  role: Role | null;
  /**
   * The session ended because the person pressed 'Sair' (not expiry): guarded pages then send
   * them home, as the spec asks, instead of to a login screen.
   */
  signedOutByUser?: boolean;
};

export type AuthContextValue = AuthState & {
  /** Signs out; a session the server no longer knows is treated as already signed out. */
  signOut: () => Promise<void>;
  /** Re-reads the profile after the person edits it. */
  refreshProfile: () => Promise<void>;
};

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}

/** Where 'Meu Painel' and the login screens send a signed-in person. */
export function dashboardPath(role: Role | null): string {
  return role === 'medico' ? '/medico/dashboard' : '/paciente/dashboard';
}

export function requiresPasswordChange(user: User | null): boolean {
  return user?.user_metadata?.require_password_change === true;
}
