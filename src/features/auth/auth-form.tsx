import { useContext, useMemo, useState, type ChangeEvent } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import { Link, useNavigate } from 'react-router-dom';
import { Temporal } from 'temporal-polyfill';
import { css } from 'styled-system/css';
import { BIRTH_DATE_MASK, maskBirthDate } from '@/domain/identity/birth-date.ts';
import { CPF_MASK, maskCpf } from '@/domain/identity/cpf.ts';
import {
  WHATSAPP_MASK,
  WHATSAPP_MAX_LENGTH,
  looksIncompleteWhatsapp,
  maskWhatsapp,
} from '@/domain/identity/whatsapp.ts';
import {
  createLoginSchema,
  createSignupSchema,
  toSignupMetadata,
  type AuthTarget,
} from '@/domain/schemas/auth.ts';
import { MESSAGES } from '@/domain/schemas/fields.ts';
import type { AppSupabaseClient } from '@/lib/supabase.ts';
import { showToast } from '@/lib/toast.ts';
import { Button } from '@/ui/button.tsx';
import { CheckboxField, TextField } from '@/ui/field.tsx';
import { signIn, signUp } from './auth-actions.ts';
import { PasswordField } from './password-field.tsx';
import { useSupabase } from '@/session/supabase-context.ts';
import { useKeptQueue } from '@/session/kept-queue.ts';
import { AuthContext } from '@/session/auth-context.ts';
import { Alert } from '@/ui/alert.tsx';
import { discardWarningText, KeptQueueNotice } from './session-notices.tsx';
import type { AuthSuccess } from '@/session/feature-slots.ts';

export type AuthMode = 'login' | 'signup';

type AuthFormProps = {
  target: AuthTarget;
  initialMode?: AuthMode;
  /** Login success always; sign-up success only when `inModal` (pages go to /cadastro-sucesso). */
  onSuccess?: (result: AuthSuccess) => void;
  inModal?: boolean;
};

const form = css({ display: 'flex', flexDirection: 'column', gap: '4' });
const textLink = css({
  color: 'primary.text',
  fontWeight: 'medium',
  textDecoration: 'underline',
  textUnderlineOffset: '3px',
  cursor: 'pointer',
});

/** Applies an input mask as the person types, then lets react-hook-form see the value. */
function masked(registration: UseFormRegisterReturn, mask: (value: string) => string) {
  return {
    ...registration,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      event.target.value = mask(event.target.value);
      return registration.onChange(event);
    },
  };
}

type LoginFormProps = Pick<AuthFormProps, 'target' | 'onSuccess'> & { client: AppSupabaseClient };

function LoginForm({ target, onSuccess, client }: LoginFormProps) {
  const schema = useMemo(() => createLoginSchema(target), [target]);
  // Read without useAuth(): the form is also rendered on its own, outside an auth provider.
  const expiredEmail = useContext(AuthContext)?.expired?.email;
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: valibotResolver(schema),
    // After a refused session, the person who was signed in is the one most likely back.
    defaultValues: { email: expiredEmail ?? '', password: '' },
  });

  const kept = useKeptQueue();
  const [warnedFor, setWarnedFor] = useState<string | null>(null);
  const discarding = (email: string) =>
    kept !== null &&
    kept.pending > 0 &&
    kept.email !== null &&
    kept.email.toLowerCase() !== email.trim().toLowerCase();

  const submit = handleSubmit(async ({ email, password }) => {
    // Someone else's unsent changes are deleted when this person signs in: say so first.
    if (discarding(email) && warnedFor !== email) {
      setWarnedFor(email);
      return;
    }
    const outcome = await signIn(client, email, password);
    if (outcome.kind === 'failed') {
      showToast({ tone: 'error', title: outcome.title, description: outcome.description });
      return;
    }
    onSuccess?.({ mode: 'login', email });
  });

  return (
    <form className={form} onSubmit={(event) => void submit(event)} noValidate aria-label="Entrar">
      <TextField
        label="E-mail"
        type="email"
        autoComplete="email"
        inputMode="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <PasswordField
        label="Senha"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      {kept && warnedFor !== null && discarding(warnedFor) && (
        <Alert tone="amber" role="alert">
          {discardWarningText(kept)}
        </Alert>
      )}
      <Link
        to="/recuperar-senha"
        className={css({ alignSelf: 'flex-end', fontSize: 'sm' }) + ' ' + textLink}
      >
        Esqueceu sua senha?
      </Link>
      <Button type="submit" fullWidth loading={isSubmitting}>
        Entrar
      </Button>
    </form>
  );
}

export const CONSENT_TEXTS = {
  title: 'Consentimento para Telemedicina',
  summary:
    'A teleconsulta é um atendimento médico a distância, por vídeo, sem exame físico e não indicado para urgências. Seus dados são protegidos por sigilo médico e tratados conforme a LGPD; registramos a data e a versão do termo que você aceitar.',
} as const;

const legalLink = css({ color: 'primary.text', textDecoration: 'underline', fontWeight: 'medium' });

function NewTabLink({ to, children }: { to: string; children: string }) {
  return (
    <Link to={to} target="_blank" rel="noopener" className={legalLink}>
      {children}
    </Link>
  );
}

/** The required consent: a summary of the terms, links to them, and the box to tick. */
function TelemedicineConsent({
  error,
  ...checkbox
}: UseFormRegisterReturn & { error: string | undefined }) {
  return (
    <div
      className={css({
        display: 'flex',
        flexDirection: 'column',
        gap: '3',
        p: '4',
        borderWidth: '1px',
        borderColor: error ? 'destructive.fg' : 'border',
        borderRadius: 'md',
        bg: 'bg.canvas',
      })}
    >
      <p className={css({ fontWeight: 'semibold', fontSize: 'sm' })}>{CONSENT_TEXTS.title}</p>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{CONSENT_TEXTS.summary}</p>
      <CheckboxField
        error={error}
        label={
          <>
            Li e aceito o{' '}
            <NewTabLink to="/consentimento">Termo de Consentimento para Telemedicina</NewTabLink>,
            os <NewTabLink to="/termos">Termos de Serviço</NewTabLink> e a{' '}
            <NewTabLink to="/privacidade">Política de Privacidade</NewTabLink>.
          </>
        }
        {...checkbox}
      />
    </div>
  );
}

function SignupForm({
  onSuccess,
  inModal,
  client,
}: Pick<AuthFormProps, 'onSuccess' | 'inModal'> & { client: AppSupabaseClient }) {
  const navigate = useNavigate();
  const schema = useMemo(() => createSignupSchema(Temporal.Now.instant()), []);
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: valibotResolver(schema),
    defaultValues: {
      full_name: '',
      cpf: '',
      data_nasc: '',
      email: '',
      password: '',
      whatsapp: '',
      consentimento: false,
    },
  });

  const submit = handleSubmit(async (signup) => {
    const outcome = await signUp(client, {
      email: signup.email,
      password: signup.password,
      metadata: toSignupMetadata(signup),
    });
    if (outcome.kind === 'failed') {
      showToast({ tone: 'error', title: outcome.title, description: outcome.description });
      return;
    }
    const resent = outcome.kind === 'resend_successful';
    if (inModal) {
      onSuccess?.({ mode: 'signup', email: signup.email, resent });
      return;
    }
    await navigate('/cadastro-sucesso', { state: { email: signup.email } });
  });

  return (
    <form
      className={form}
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label="Criar conta"
    >
      <TextField
        label="Nome completo"
        autoComplete="name"
        error={errors.full_name?.message}
        {...register('full_name')}
      />
      <TextField
        label="CPF"
        inputMode="numeric"
        placeholder={CPF_MASK}
        maxLength={CPF_MASK.length}
        error={errors.cpf?.message}
        {...masked(register('cpf'), maskCpf)}
      />
      <TextField
        label="Data de nascimento"
        inputMode="numeric"
        placeholder="DD/MM/AAAA"
        maxLength={BIRTH_DATE_MASK.length}
        autoComplete="bday"
        error={errors.data_nasc?.message}
        {...masked(register('data_nasc'), maskBirthDate)}
      />
      <TextField
        label="WhatsApp (opcional)"
        type="tel"
        inputMode="tel"
        placeholder={WHATSAPP_MASK}
        maxLength={WHATSAPP_MAX_LENGTH}
        autoComplete="tel"
        error={errors.whatsapp?.message}
        helperText={
          looksIncompleteWhatsapp(watch('whatsapp') ?? '')
            ? MESSAGES.whatsappLooksIncomplete
            : undefined
        }
        {...masked(register('whatsapp'), maskWhatsapp)}
      />
      <TextField
        label="E-mail"
        type="email"
        autoComplete="email"
        inputMode="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <PasswordField
        label="Senha"
        autoComplete="new-password"
        helperText="Mínimo de 8 caracteres."
        error={errors.password?.message}
        {...register('password')}
      />
      <TelemedicineConsent error={errors.consentimento?.message} {...register('consentimento')} />
      <Button type="submit" fullWidth loading={isSubmitting}>
        Criar Conta
      </Button>
    </form>
  );
}

/**
 * docs/product-rules.md §2 authentication form, for a page or a modal. Doctors have no self sign-up: their
 * target shows login only.
 */
export function AuthForm({
  target,
  initialMode = 'login',
  onSuccess,
  inModal = false,
}: AuthFormProps) {
  const client = useSupabase();
  const canSignUp = target === 'paciente';
  const [mode, setMode] = useState<AuthMode>(canSignUp ? initialMode : 'login');
  const kept = useKeptQueue();
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
      <KeptQueueNotice kept={kept} />
      {mode === 'login' || !canSignUp ? (
        <LoginForm target={target} onSuccess={onSuccess} client={client} />
      ) : (
        <SignupForm onSuccess={onSuccess} inModal={inModal} client={client} />
      )}
      {canSignUp && (
        <p className={css({ textAlign: 'center', fontSize: 'sm', color: 'fg.muted' })}>
          {mode === 'login' ? 'Não tem uma conta?' : 'Já tem uma conta?'}{' '}
          <button
            type="button"
            className={textLink}
            onClick={() => setMode(mode === 'login' ? 'signup' : 'login')}
          >
            {mode === 'login' ? 'Cadastre-se' : 'Entrar'}
          </button>
        </p>
      )}
    </div>
  );
}
