import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import { css } from 'styled-system/css';
import { passwordFormSchema, type PasswordForm as PasswordValues } from '@/domain/schemas/auth.ts';
import { Button } from '@/ui/button.tsx';
import { PasswordField } from './password-field.tsx';

type PasswordFormProps = {
  onSubmit: (values: PasswordValues) => Promise<void>;
  /** Extra actions under the submit button (e.g. 'Cancelar'). */
  secondary?: ReactNode;
};

/** 'Nova Senha' + 'Confirmar Nova Senha', shared by the reset and change screens. */
export function PasswordForm({ onSubmit, secondary }: PasswordFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: valibotResolver(passwordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  return (
    <form
      onSubmit={(event) => void handleSubmit(onSubmit)(event)}
      noValidate
      className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
    >
      <PasswordField
        label="Nova Senha"
        revealNoun="nova senha"
        autoComplete="new-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <PasswordField
        label="Confirmar Nova Senha"
        revealNoun="confirmação da nova senha"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <Button type="submit" fullWidth loading={isSubmitting}>
        Salvar Nova Senha
      </Button>
      {secondary}
    </form>
  );
}
