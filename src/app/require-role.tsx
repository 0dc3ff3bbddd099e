import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAuth } from '@/session/auth-context.ts';
import type { Role } from '@/session/profile.ts';
import { PageSpinner } from '@/ui/spinner.tsx';
import { AccessDenied } from './access-denied.tsx';

type RequireRoleProps = { roles: readonly Role[]; children?: ReactNode };

/**
 * docs/product-rules.md §2 guarded-route wrapper: signed-out people go to the matching login screen, which
 * sends them back to where they were going (`state.from`); a wrong role sees 'Acesso Restrito'.
 */
export function RequireRole({ roles, children }: RequireRoleProps) {
  const { loading, session, role, signedOutByUser } = useAuth();
  const location = useLocation();
  if (loading) return <PageSpinner />;
  if (!session && signedOutByUser) return <Navigate to="/" replace />;
  if (!session) {
    const login = roles.includes('medico') ? '/acesso-medico' : '/acesso-paciente';
    const from = { pathname: location.pathname, search: location.search, hash: location.hash };
    return <Navigate to={login} replace state={{ from }} />;
  }
  if (!role || !roles.includes(role)) return <AccessDenied roles={roles} />;
  return children ?? <Outlet />;
}
