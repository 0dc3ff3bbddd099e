import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { requiresPasswordChange, useAuth } from '@/session/auth-context.ts';

/** Where a person who must choose a new password may still be. */
const EXEMPT_PATHS = new Set(['/conta/alterar-senha', '/auth/reset-password']);

/** docs/product-rules.md §2: a person flagged `require_password_change` is sent to the forced change screen. */
export function PasswordChangeGate({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const { pathname } = useLocation();
  if (!requiresPasswordChange(user) || EXEMPT_PATHS.has(pathname)) return children;
  return <Navigate to="/conta/alterar-senha?source=required" replace />;
}
