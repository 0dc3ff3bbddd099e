import { isAuthRetryableFetchError, type AuthError } from '@supabase/supabase-js';
import { timeoutOr } from '@/lib/request-deadline.ts';

export const NETWORK_ERROR_MESSAGE =
  'Não foi possível contatar o servidor agora. Verifique a conexão e tente novamente.';

/**
 * Portuguese for the GoTrue error codes a person can cause or fix. Anything else falls back
 * to the screen's generic message: GoTrue's own messages are English.
 */
const AUTH_CODE_MESSAGES: Record<string, string> = {
  weak_password: 'A senha deve ter no mínimo 8 caracteres',
  same_password: 'A nova senha deve ser diferente da senha atual.',
  email_address_invalid: 'Endereço de e-mail inválido',
  validation_failed: 'Verifique os dados informados e tente novamente.',
  over_email_send_rate_limit:
    'Muitas tentativas de envio de e-mail. Aguarde alguns minutos e tente novamente.',
  over_request_rate_limit: 'Muitas tentativas. Aguarde alguns minutos e tente novamente.',
  signup_disabled: 'Novos cadastros estão temporariamente indisponíveis.',
  session_not_found: 'Sua sessão expirou. Abra novamente o link recebido por e-mail.',
  session_expired: 'Sua sessão expirou. Abra novamente o link recebido por e-mail.',
};

/** The description for an auth failure: a known reason in Portuguese, else `fallback`. */
export function authErrorMessage(error: AuthError, fallback: string): string {
  if (isAuthRetryableFetchError(error)) return timeoutOr(error, NETWORK_ERROR_MESSAGE);
  return (error.code && AUTH_CODE_MESSAGES[error.code]) || fallback;
}

export const INVALID_CREDENTIALS_MESSAGE = 'Email ou senha inválidos.';
export const EMAIL_NOT_CONFIRMED_MESSAGE =
  'Seu e-mail ainda não foi confirmado. Por favor, verifique sua caixa de entrada e clique no link de confirmação.';

/** docs/product-rules.md §8: sign-in failures never say which of e-mail or password was wrong. */
export function signInErrorMessage(error: AuthError): string {
  if (isAuthRetryableFetchError(error)) return timeoutOr(error, NETWORK_ERROR_MESSAGE);
  if (error.code === 'email_not_confirmed') return EMAIL_NOT_CONFIRMED_MESSAGE;
  return INVALID_CREDENTIALS_MESSAGE;
}

export function isUserAlreadyRegistered(error: AuthError): boolean {
  return error.code === 'user_already_exists' || error.code === 'email_exists';
}
