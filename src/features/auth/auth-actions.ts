import type { AppSupabaseClient } from '@/lib/supabase.ts';
import type { SignupMetadata } from '@/domain/schemas/auth.ts';
import { ERROR_MESSAGES } from '@/domain/errors/messages.ts';
import { AUTH_FORM_CODES, mapServerError, shownMessage } from '@/domain/errors/map-server-error.ts';
import { signupRedirectUrl } from './signup-redirect.ts';

export type Failure = { title: string; description: string };

export type SignupOutcome =
  | { kind: 'created' }
  /** The e-mail already had an account: its confirmation e-mail was sent again. */
  | { kind: 'resend_successful' }
  | ({ kind: 'failed' } & Failure);

const SIGNUP_FAILED = 'Falha no Cadastro';

async function resendConfirmation(
  client: AppSupabaseClient,
  email: string,
): Promise<SignupOutcome> {
  const { error } = await client.auth.resend({
    type: 'signup',
    email,
    options: { emailRedirectTo: signupRedirectUrl() },
  });
  if (!error) return { kind: 'resend_successful' };
  return {
    kind: 'failed',
    title: SIGNUP_FAILED,
    description:
      'Este e-mail já existe, mas não conseguimos reenviar a confirmação. Tente fazer login.',
  };
}

/**
 * Creates the account. With e-mail confirmation on, GoTrue answers a sign-up for an existing
 * e-mail with a user that has no identities (so it does not reveal the account); the person
 * most likely lost the first e-mail, so it is sent again.
 */
export type SignupRequest = { email: string; password: string; metadata: SignupMetadata };

export async function signUp(
  client: AppSupabaseClient,
  input: SignupRequest,
): Promise<SignupOutcome> {
  const { data, error } = await client.auth.signUp({
    email: input.email,
    password: input.password,
    options: {
      emailRedirectTo: signupRedirectUrl(),
      data: input.metadata,
    },
  });
  if (error) {
    const failure = mapServerError(error);
    if (failure.code === 'user-already-exists') return resendConfirmation(client, input.email);
    return {
      kind: 'failed',
      title: SIGNUP_FAILED,
      description: shownMessage(
        failure,
        'Não foi possível criar sua conta. Tente novamente.',
        AUTH_FORM_CODES,
      ),
    };
  }
  if (data.user && data.user.identities?.length === 0) {
    return resendConfirmation(client, input.email);
  }
  return { kind: 'created' };
}

/**
 * docs/product-rules.md §8: a sign-in failure never says which of e-mail or password was wrong;
 * only an unconfirmed e-mail and a network-type failure are told apart.
 */
const SIGN_IN_CODES = ['timeout', 'network', 'email-not-confirmed'];

export type SignInOutcome = { kind: 'signed-in' } | ({ kind: 'failed' } & Failure);

export async function signIn(
  client: AppSupabaseClient,
  email: string,
  password: string,
): Promise<SignInOutcome> {
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (!error) return { kind: 'signed-in' };
  const description = shownMessage(
    mapServerError(error),
    ERROR_MESSAGES.invalidCredentials,
    SIGN_IN_CODES,
  );
  return { kind: 'failed', title: 'Falha no Login', description };
}
