import type { ReactNode } from 'react';
import type { Session, User } from '@supabase/supabase-js';
import { AuthContext, type AuthContextValue } from '@/session/auth-context.ts';
import type { Role } from '@/session/profile.ts';

/** A signed-in person as the auth provider would expose them, for screens under test. */
export function signedIn(role: Role, metadata: Record<string, unknown> = {}): AuthContextValue {
  const user = {
    id: '7b0c7a2e-4b2a-4d8e-9f51-0a1b2c3d4e5f',
    aud: 'authenticated',
    email: 'ana@example.com',
    app_metadata: { role },
    user_metadata: metadata,
    created_at: '2026-11-01T12:00:00Z',
  } as User;
  const session = { access_token: 'token', user } as Session;
  return {
    loading: false,
    session,
    user,
    role,
    profile: {
      id: user.id,
      role,
      full_name: 'Ana Souza',
      email: 'ana@example.com',
      cpf: '52998224725',
      data_nasc: '1990-12-05',
      whatsapp: null,
    },
    signOut: () => Promise.resolve(),
    refreshProfile: () => Promise.resolve(),
  };
}

export function signedOut(): AuthContextValue {
  return {
    loading: false,
    session: null,
    user: null,
    role: null,
    profile: null,
    signOut: () => Promise.resolve(),
    refreshProfile: () => Promise.resolve(),
  };
}

export function loadingAuth(): AuthContextValue {
  return { ...signedOut(), loading: true };
}

export function WithAuth({ value, children }: { value: AuthContextValue; children: ReactNode }) {
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
