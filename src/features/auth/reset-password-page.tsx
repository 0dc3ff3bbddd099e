import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { css } from 'styled-system/css';
import { authLinkError } from '@/domain/account/auth-link.ts';
import { showToast } from '@/lib/toast.ts';
import { buttonClass } from '@/ui/button.tsx';
import { Alert } from '@/ui/alert.tsx';
import { PageSpinner } from '@/ui/spinner.tsx';
import { useAuth } from '@/session/auth-context.ts';
import { AUTH_FORM_CODES, mapServerError, shownMessage } from '@/domain/errors/map-server-error.ts';
import { AuthPageShell } from './auth-page-shell.tsx';
import { useSupabase } from '@/session/supabase-context.ts';
import { PasswordForm } from './password-form.tsx';

const LINK_INVALID = 'Link inválido ou expirado';
/**
 * /auth/reset-password. The recovery link signs the person in: the implicit flow's tokens in
 * the URL fragment are read by supabase-js (PASSWORD_RECOVERY); a PKCE `?code=` is exchanged.
 */
export function ResetPasswordPage() {
  const supabase = useSupabase();
  const { loading, session, signOut } = useAuth();
  const navigate = useNavigate();
  // Read once, as the page opens: the redirect says so when the link was used or expired.
  const [linkError] = useState(() => authLinkError(window.location.search, window.location.hash));

  useEffect(() => {
    const code = new URLSearchParams(window.location.search).get('code');
    if (code && !linkError) void supabase.auth.exchangeCodeForSession(code);
  }, [supabase, linkError]);

  async function save({ password }: { password: string }) {
    const { error } = await supabase.auth.updateUser({ password });
    if (error) {
      showToast({
        tone: 'error',
        title: 'Erro ao redefinir senha',
        description: shownMessage(
          mapServerError(error),
          'Não foi possível atualizar sua senha. Verifique se o link é válido e tente novamente.',
          AUTH_FORM_CODES,
        ),
      });
      return;
    }
    showToast({
      tone: 'success',
      title: 'Senha alterada com sucesso!',
      description: 'Você já pode fazer login com sua nova senha.',
    });
    await signOut();
    await navigate('/acesso-paciente?reset=ok', { replace: true });
  }

  if (linkError) {
    return (
      <AuthPageShell
        title="Link expirado"
        description="Este link de redefinição de senha já foi usado ou expirou."
      >
        <Alert tone="amber" role="alert" title={LINK_INVALID}>
          Por segurança, cada link funciona uma única vez e por tempo limitado. Peça um novo link e
          use o e-mail mais recente.
        </Alert>
        <Link to="/recuperar-senha" className={buttonClass({ fullWidth: true }, css({ mt: '5' }))}>
          Solicitar novo link
        </Link>
        <p className={css({ mt: '5', textAlign: 'center', fontSize: 'sm' })}>
          <Link
            to="/acesso-paciente"
            className={css({ color: 'primary.text', textDecoration: 'underline' })}
          >
            Voltar para o login
          </Link>
        </p>
      </AuthPageShell>
    );
  }
  if (loading) return <PageSpinner />;
  return (
    <AuthPageShell
      title="Crie sua nova senha"
      description="Escolha uma senha forte com no mínimo 8 caracteres."
    >
      {!session && (
        <Alert tone="amber" title={LINK_INVALID} className={css({ mb: '5' })}>
          Abra novamente o link enviado para o seu e-mail ou{' '}
          <Link to="/recuperar-senha" className={css({ textDecoration: 'underline' })}>
            solicite um novo link
          </Link>
          .
        </Alert>
      )}
      <PasswordForm onSubmit={save} />
      <p className={css({ mt: '5', textAlign: 'center', fontSize: 'sm' })}>
        <Link
          to="/acesso-paciente"
          className={css({ color: 'primary.text', textDecoration: 'underline' })}
        >
          Lembrou a senha? Voltar para o login
        </Link>
      </p>
    </AuthPageShell>
  );
}
