import { Link, useLocation } from 'react-router-dom';
import { css } from 'styled-system/css';
import { Alert } from '@/ui/alert.tsx';
import { buttonClass } from '@/ui/button.tsx';
import { AuthPageShell } from './auth-page-shell.tsx';
import { readNavigationEmail } from './navigation-state.ts';

export function SignupSuccessPage() {
  const location = useLocation();
  const email = readNavigationEmail(location.state);
  return (
    <AuthPageShell title="Cadastro realizado com sucesso!">
      <Alert tone="success" role="status" title="Confirme seu e-mail para ativar sua conta">
        Enviamos um link de confirmação para <strong>{email ?? 'seu e-mail'}</strong>. Clique no
        link para ativar sua conta e depois faça login.
      </Alert>
      <p className={css({ mt: '4', fontSize: 'sm', color: 'fg.muted' })}>
        Não encontrou? Verifique sua caixa de spam ou lixo eletrônico.{' '}
        <Link
          to="/confirmacao-cadastro"
          state={{ email }}
          className={css({ color: 'primary.text', textDecoration: 'underline' })}
        >
          Reenviar o e-mail de confirmação
        </Link>
      </p>
      <Link to="/" className={buttonClass({ fullWidth: true }, css({ mt: '6' }))}>
        Voltar para o início
      </Link>
    </AuthPageShell>
  );
}
