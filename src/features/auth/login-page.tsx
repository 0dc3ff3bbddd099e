import { Navigate, useLocation } from 'react-router-dom';
import { css } from 'styled-system/css';
import type { AuthTarget } from '@/domain/schemas/auth.ts';
import { Alert } from '@/ui/alert.tsx';
import { PageSpinner } from '@/ui/spinner.tsx';
import { dashboardPath, SESSION_EXPIRED_MESSAGE, useAuth } from '@/session/auth-context.ts';
import { AuthForm } from './auth-form.tsx';
import { AuthPageShell } from './auth-page-shell.tsx';
import { readOrigin } from './navigation-state.ts';

const COPY: Record<AuthTarget, { title: string; description: string }> = {
  paciente: {
    title: 'Área do Paciente',
    description: 'Entre ou crie sua conta para agendar e acompanhar suas consultas.',
  },
  medico: {
    title: 'Área do Médico',
    description: 'Entre com o e-mail e a senha da sua conta de médico.',
  },
};

/**
 * /acesso-paciente and /acesso-medico. Once signed in (session and profile), the person goes
 * back to the page that sent them here, else to their dashboard.
 */
export function LoginPage({ target }: { target: AuthTarget }) {
  const { loading, session, profile, role, expired } = useAuth();
  const location = useLocation();
  if (loading) return <PageSpinner />;
  if (session && profile) {
    return <Navigate to={readOrigin(location.state) ?? dashboardPath(role)} replace />;
  }
  const copy = COPY[target];
  return (
    <AuthPageShell title={copy.title} description={copy.description}>
      {expired && (
        <Alert
          tone="amber"
          role="alert"
          title={SESSION_EXPIRED_MESSAGE}
          className={css({ mb: '5' })}
        >
          O servidor encerrou o acesso deste aparelho. Ao entrar, você volta para onde estava.
        </Alert>
      )}
      {/* After a refused session the page says what happened, not who may enter. */}
      {target === 'medico' && !expired && (
        <Alert tone="amber" title="Acesso Restrito" className={css({ mb: '5' })}>
          Esta área é exclusiva para médicos autorizados.
        </Alert>
      )}
      {new URLSearchParams(location.search).get('reset') === 'ok' && (
        <Alert tone="success" role="status" className={css({ mb: '5' })}>
          Sua senha foi redefinida. Entre com o seu e-mail e a nova senha.
        </Alert>
      )}
      {/* No success callback: the redirect above runs once the session and profile arrive. */}
      <AuthForm target={target} />
    </AuthPageShell>
  );
}
