import { createContext, useContext } from 'react';
import type { Session, User } from '@supabase/supabase-js';
import type { Profile, Role } from './profile.ts';

export type AuthState = {
  /**
   * True until the person is known: at once from the stored session (even an expired one,
   * read without the network), else after supabase-js's first answer; with a session and no
   * cached profile, until the first profile read ends.
   */
  loading: boolean;
  session: Session | null;
  user: User | null;
  profile: Profile | null;
  role: Role | null;
  /**
   * The session ended because the person pressed 'Sair' (not expiry): guarded pages then send
   * them home, as the product rules (docs/product-rules.md) ask, instead of to a login screen.
   */
  signedOutByUser?: boolean;
  /**
   * The auth server refused the session (revoked, user deleted): the person was signed out
   * without asking, is told so, and their unsent changes were kept (src/session/kept-queue.ts).
   */
  expired?: { userId: string; email: string | null };
};

/** What the person is told when the server ended their session. */
export const SESSION_EXPIRED_MESSAGE = 'Sua sessão expirou. Entre novamente.';

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
