import { appError, reasonToCode } from './app-error.ts';
import type { AppError } from './app-error.ts';
import { ERROR_MESSAGES } from './messages.ts';

/** The partial unique index over booked statuses (supabase/migrations/CONTRACT.md). */
export const SLOT_UNIQUE_INDEX = 'agendamentos_slot_unico';

/** paciente_agendar's reason when the patient holds too many open unpaid bookings. */
export const UNPAID_LIMIT_HINT = 'unpaid_limit';

type ErrorFields = {
  name: string;
  code: string;
  message: string;
  details: string;
  hint: string;
  status: number | null;
};

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** Reads the fields every client error carries (PostgrestError, AuthError, Functions*Error, DOMException). */
function fieldsOf(error: unknown): ErrorFields {
  if (typeof error === 'string') {
    return { name: '', code: '', message: error, details: '', hint: '', status: null };
  }
  if (typeof error !== 'object' || error === null) {
    return { name: '', code: '', message: '', details: '', hint: '', status: null };
  }
  const record = error as Record<string, unknown>;
  return {
    name: text(record.name),
    code: text(record.code),
    message: text(record.message) || text(record.msg) || text(record.error_description),
    details: text(record.details),
    hint: text(record.hint),
    status: typeof record.status === 'number' ? record.status : null,
  };
}

function describe(fields: ErrorFields): string {
  const parts = [
    fields.name,
    fields.status !== null ? `status ${fields.status}` : '',
    fields.code ? `code ${fields.code}` : '',
    fields.message,
    fields.details ? `details: ${fields.details}` : '',
    fields.hint ? `hint: ${fields.hint}` : '',
  ];
  return parts.filter(Boolean).join('; ') || 'unknown error';
}

const SERVER_REASON = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

function isTimeout(f: ErrorFields): boolean {
  return (
    f.name === 'AbortError' ||
    f.name === 'TimeoutError' ||
    /^(AbortError|TimeoutError)\b/.test(f.message) ||
    f.hint.startsWith('Request was aborted') ||
    f.code === '57014'
  );
}

function isNetworkFailure(f: ErrorFields): boolean {
  if (f.name === 'AuthRetryableFetchError') return f.status === 0 || f.status === null;
  return (
    f.name === 'FunctionsFetchError' ||
    (f.name === 'TypeError' && /fetch|network|load failed/i.test(f.message)) ||
    /^(TypeError|FetchError): /.test(f.message)
  );
}

function isUnavailable(f: ErrorFields): boolean {
  return (
    f.name === 'AuthRetryableFetchError' ||
    f.name === 'FunctionsRelayError' ||
    (f.status !== null && f.status >= 500) ||
    /^(08|53)/.test(f.code) ||
    f.code === '57P01'
  );
}

const AUTH_CODES: Record<string, { code: string; message: string }> = {
  invalid_credentials: { code: 'invalid-credentials', message: ERROR_MESSAGES.invalidCredentials },
  email_not_confirmed: { code: 'email-not-confirmed', message: ERROR_MESSAGES.emailNotConfirmed },
  user_already_exists: { code: 'user-already-exists', message: ERROR_MESSAGES.userAlreadyExists },
  email_exists: { code: 'user-already-exists', message: ERROR_MESSAGES.userAlreadyExists },
  weak_password: { code: 'weak-password', message: ERROR_MESSAGES.weakPassword },
  session_not_found: { code: 'not-authenticated', message: ERROR_MESSAGES.notAuthenticated },
  refresh_token_not_found: { code: 'not-authenticated', message: ERROR_MESSAGES.notAuthenticated },
  refresh_token_already_used: {
    code: 'not-authenticated',
    message: ERROR_MESSAGES.notAuthenticated,
  },
};

function mapAuthError(f: ErrorFields, cause: string): AppError {
  if (f.name === 'AuthSessionMissingError') {
    return appError('not-authenticated', ERROR_MESSAGES.notAuthenticated, cause);
  }
  const known = AUTH_CODES[f.code];
  if (known) return appError(known.code, known.message, cause);
  return appError(f.code ? reasonToCode(f.code) : 'auth-error', ERROR_MESSAGES.unknown, cause);
}

function mapPostgrestError(f: ErrorFields, cause: string): AppError {
  if (f.code === '23505' && (f.hint === 'slot_taken' || f.message.includes(SLOT_UNIQUE_INDEX))) {
    return appError('slot-taken', ERROR_MESSAGES.slotTaken, cause);
  }
  if (f.hint === UNPAID_LIMIT_HINT) {
    return appError('unpaid-limit', ERROR_MESSAGES.unpaidLimit, cause);
  }
  // Our RPCs and triggers put a snake_case reason in `hint` and Portuguese in `message`.
  if (SERVER_REASON.test(f.hint) && f.message) {
    return appError(reasonToCode(f.hint), f.message, cause);
  }
  switch (f.code) {
    case '23P01':
      return appError('schedule-overlap', ERROR_MESSAGES.scheduleOverlap, cause);
    case '42501':
      return appError('permission-denied', ERROR_MESSAGES.permissionDenied, cause);
    case 'PGRST116':
      return appError('not-found', ERROR_MESSAGES.notFound, cause);
    case 'PGRST301':
    case 'PGRST302':
    case 'PGRST303':
      return appError('not-authenticated', ERROR_MESSAGES.notAuthenticated, cause);
    case 'P0001':
      return appError('rule-violated', f.message || ERROR_MESSAGES.unknown, cause);
  }
  if (/^(22|23|PGRST1)/.test(f.code)) {
    return appError('invalid-request', ERROR_MESSAGES.invalidRequest, cause);
  }
  return appError('unknown', ERROR_MESSAGES.unknown, cause);
}

/**
 * The one place server and transport failures become AppErrors (docs/architecture.md §3: errors are values, mapped once). Accepts
 * whatever supabase-js hands back — PostgrestError {code, message, details, hint}, AuthError
 * {name, status, code}, Functions*Error, an aborted fetch — and never throws. Programs branch
 * on `code`; the Portuguese `message` comes from the server only when the server marked it as
 * meant for people (a snake_case reason in `hint`).
 */
export function mapServerError(error: unknown): AppError {
  const f = fieldsOf(error);
  const cause = describe(f);
  if (isTimeout(f)) return appError('timeout', ERROR_MESSAGES.timeout, cause);
  if (isNetworkFailure(f)) return appError('network', ERROR_MESSAGES.network, cause);
  if (isUnavailable(f)) {
    return appError('server-unavailable', ERROR_MESSAGES.serverUnavailable, cause);
  }
  if (f.name.startsWith('Auth')) return mapAuthError(f, cause);
  if (f.name === 'FunctionsHttpError') {
    return appError('function-failed', ERROR_MESSAGES.unknown, cause);
  }
  return mapPostgrestError(f, cause);
}

export function retriesExhaustedError(last: AppError): AppError {
  return appError('retries-exhausted', ERROR_MESSAGES.retriesExhausted, last.cause);
}

/** A form or payload refused before it left the device: the first field message is shown. */
export function invalidInputError(errors: Record<string, string>): AppError {
  const [field, message] = Object.entries(errors)[0] ?? ['', ERROR_MESSAGES.invalidRequest];
  return appError('invalid-input', message, `invalid input${field ? ` at ${field}` : ''}`);
}
