import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { showToast } from '@/lib/toast.ts';
import { Button } from '@/ui/button.tsx';
import { dashboardPath, requiresPasswordChange, useAuth } from '@/session/auth-context.ts';
import { AUTH_FORM_CODES, mapServerError, shownMessage } from '@/domain/errors/map-server-error.ts';
import { AuthPageShell } from './auth-page-shell.tsx';
import { useSupabase } from '@/session/supabase-context.ts';
import { PasswordForm } from './password-form.tsx';

/**
 * /conta/alterar-senha. With `?source=required` it is the forced first-access screen (doctors
 * whose accounts were created with a one-time password): no way out but a new password.
 */
export function ChangePasswordPage() {
  const supabase = useSupabase();
  const [params] = useSearchParams();
  const forced = params.get('source') === 'required';
  const { user, role } = useAuth();
  const navigate = useNavigate();
  const [saved, setSaved] = useState(false);

  // Leave only once the session shows the cleared flag, or the password gate sends us back.
  useEffect(() => {
    if (saved && !requiresPasswordChange(user)) {
      void navigate(dashboardPath(role), { replace: true });
    }
  }, [saved, user, role, navigate]);

  async function save({ password }: { password: string }) {
    const { error } = await supabase.auth.updateUser({
      password,
      data: { require_password_change: false },
    });
    if (error) {
      showToast({
        tone: 'error',
        title: 'Erro ao alterar senha',
        description: shownMessage(
          mapServerError(error),
          'Não foi possível atualizar sua senha. Tente novamente.',
          AUTH_FORM_CODES,
        ),
      });
      return;
    }
    showToast({
      tone: 'success',
      title: 'Senha alterada com sucesso!',
      description: forced ? 'Seu acesso está liberado.' : undefined,
    });
    setSaved(true);
  }

  return (
    <AuthPageShell
      title={forced ? 'Crie sua nova senha' : 'Alterar Senha'}
      description={
        forced
          ? 'Por segurança, defina uma nova senha para o seu primeiro acesso. Use no mínimo 8 caracteres.'
          : 'Escolha uma senha forte com no mínimo 8 caracteres.'
      }
    >
      <PasswordForm
        onSubmit={save}
        secondary={
          forced ? undefined : (
            <Button variant="ghost" fullWidth onClick={() => void navigate(-1)}>
              Cancelar
            </Button>
          )
        }
      />
    </AuthPageShell>
  );
}
