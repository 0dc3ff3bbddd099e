import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { css } from 'styled-system/css';
import { mapServerError, shownMessage } from '@/domain/errors/map-server-error.ts';
import { showToast } from '@/lib/toast.ts';
import { Button, buttonClass } from '@/ui/button.tsx';
import { AuthPageShell } from './auth-page-shell.tsx';
import { useSupabase } from '@/session/supabase-context.ts';
import { readCustomMessage, readNavigationEmail } from './navigation-state.ts';
import { signupRedirectUrl } from './signup-redirect.ts';

export function ConfirmSignupPage() {
  const supabase = useSupabase();
  const location = useLocation();
  const email = readNavigationEmail(location.state);
  const customMessage = readCustomMessage(location.state);
  const [sending, setSending] = useState(false);

  async function resend() {
    if (!email) {
      showToast({
        tone: 'error',
        title: 'Erro',
        description: 'Não foi possível identificar o e-mail para reenvio.',
      });
      return;
    }
    setSending(true);
    const { error } = await supabase.auth.resend({
      type: 'signup',
      email,
      options: { emailRedirectTo: signupRedirectUrl() },
    });
    setSending(false);
    if (error) {
      showToast({
        tone: 'error',
        title: 'Falha ao reenviar',
        description: shownMessage(
          mapServerError(error),
          'Não foi possível reenviar o e-mail. Tente novamente mais tarde.',
        ),
      });
      return;
    }
    showToast({
      tone: 'success',
      title: 'E-mail reenviado!',
      description: 'Verifique sua caixa de entrada (e spam) novamente.',
    });
  }

  return (
    <AuthPageShell
      title={customMessage ? 'Verifique seu E-mail' : 'Confirme seu E-mail'}
      description={customMessage ?? 'Sua conta foi criada com sucesso!'}
    >
      <p>
        Enviamos um link de confirmação para <strong>{email ?? 'seu e-mail'}</strong>. Abra a
        mensagem e clique no link para ativar sua conta.
      </p>
      <p className={css({ mt: '3', fontSize: 'sm', color: 'fg.muted' })}>
        Não recebeu? Verifique também a caixa de spam ou lixo eletrônico antes de reenviar.
      </p>
      <div className={css({ mt: '6', display: 'flex', flexDirection: 'column', gap: '3' })}>
        <Button variant="outline" fullWidth loading={sending} onClick={() => void resend()}>
          Reenviar E-mail
        </Button>
        <Link to="/" className={buttonClass({ fullWidth: true })}>
          Voltar para o início
        </Link>
      </div>
    </AuthPageShell>
  );
}
