import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import { Link } from 'react-router-dom';
import { css } from 'styled-system/css';
import { recoverySchema } from '@/domain/schemas/auth.ts';
import { mapServerError, shownMessage } from '@/domain/errors/map-server-error.ts';
import { showToast } from '@/lib/toast.ts';
import { Alert } from '@/ui/alert.tsx';
import { Button } from '@/ui/button.tsx';
import { TextField } from '@/ui/field.tsx';
import { AuthPageShell } from './auth-page-shell.tsx';
import { useSupabase } from '@/session/supabase-context.ts';
import { passwordResetRedirectUrl } from './signup-redirect.ts';

const SENT_MESSAGE =
  'Se existir uma conta com este e-mail, você receberá um link para redefinir sua senha.';

export function RecoverPasswordPage() {
  const supabase = useSupabase();
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: valibotResolver(recoverySchema), defaultValues: { email: '' } });

  const submit = handleSubmit(async ({ email }) => {
    const { error } = await supabase.auth.resetPasswordForEmail(email, {
      redirectTo: passwordResetRedirectUrl(),
    });
    if (error) {
      showToast({
        tone: 'error',
        title: 'Erro ao enviar e-mail',
        description: shownMessage(
          mapServerError(error),
          'Não foi possível enviar o link de recuperação. Verifique o e-mail e tente novamente.',
        ),
      });
      return;
    }
    setSent(true);
    showToast({ tone: 'success', title: 'E-mail enviado!', description: SENT_MESSAGE });
  });

  return (
    <AuthPageShell
      title="Recuperar Senha"
      description="Informe o e-mail da sua conta e enviaremos um link para você criar uma nova senha."
    >
      {sent && (
        <Alert tone="success" role="status" className={css({ mb: '5' })}>
          {SENT_MESSAGE}
        </Alert>
      )}
      <form
        onSubmit={(event) => void submit(event)}
        noValidate
        className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
      >
        <TextField
          label="E-mail"
          type="email"
          inputMode="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <Button type="submit" fullWidth loading={isSubmitting}>
          Enviar link de recuperação
        </Button>
      </form>
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
