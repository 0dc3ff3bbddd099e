import type { Context } from 'hono';

/**
 * Error codes as GoTrue names them (supabase/auth `apierrors/errorcode.go`); supabase-js switches
 * on some of them (`weak_password`, `session_not_found`), so they are copied, never invented.
 */
export type AuthErrorCode =
  | 'bad_json'
  | 'validation_failed'
  | 'invalid_credentials'
  | 'email_not_confirmed'
  | 'user_already_exists'
  | 'email_exists'
  | 'weak_password'
  | 'same_password'
  | 'email_address_invalid'
  | 'anonymous_provider_disabled'
  | 'phone_provider_disabled'
  | 'refresh_token_not_found'
  | 'refresh_token_already_used'
  | 'session_not_found'
  | 'session_expired'
  | 'user_not_found'
  | 'user_banned'
  | 'bad_jwt'
  | 'no_authorization'
  | 'not_admin'
  | 'otp_expired'
  | 'flow_state_not_found'
  | 'flow_state_expired'
  | 'bad_code_verifier'
  | 'over_email_send_rate_limit'
  | 'over_request_rate_limit'
  | 'conflict';

/** An expected failure of an auth request; `onError` in index.ts turns it into GoTrue's body. */
export class AuthApiError extends Error {
  override readonly name = 'AuthApiError';
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429,
    readonly code: AuthErrorCode,
    message: string,
    /** `weak_password.reasons`, the only structured payload GoTrue adds to an error. */
    readonly reasons?: string[],
  ) {
    super(message);
  }
}

export const authError = (
  status: AuthApiError['status'],
  code: AuthErrorCode,
  message: string,
): AuthApiError => new AuthApiError(status, code, message);

const API_VERSION_HEADER = 'X-Supabase-Api-Version';
const API_VERSION_2024 = '2024-01-01';

/**
 * GoTrue's `HandleResponseError`: the body shape follows the *request's* API version header —
 * `{code, message}` from 2024-01-01 on, echoed in the response header so auth-js picks the new
 * parser — and the legacy `{code: status, error_code, msg}` otherwise.
 */
export function errorResponse(c: Context, err: AuthApiError): Response {
  const requested = c.req.header(API_VERSION_HEADER);
  const modern =
    requested !== undefined &&
    /^\d{4}-\d{2}-\d{2}$/.test(requested) &&
    requested >= API_VERSION_2024;
  const weak = err.reasons ? { weak_password: { reasons: err.reasons } } : {};
  const body = modern
    ? { code: err.code, message: err.message, ...weak }
    : { code: err.status, error_code: err.code, msg: err.message, ...weak };
  const headers: Record<string, string> = { 'x-sb-error-code': err.code };
  if (modern) headers[API_VERSION_HEADER] = API_VERSION_2024;
  return c.json(body, err.status, headers);
}

/** Anything that is not an AuthApiError is a bug: answer like GoTrue's 500, never with a stack. */
export function unexpectedResponse(c: Context): Response {
  const requested = c.req.header(API_VERSION_HEADER);
  const message = 'Unexpected failure, please check server logs for more information';
  if (requested && requested >= API_VERSION_2024) {
    return c.json({ code: 'unexpected_failure', message }, 500, {
      [API_VERSION_HEADER]: API_VERSION_2024,
    });
  }
  return c.json({ code: 500, error_code: 'unexpected_failure', msg: message }, 500);
}
