import { appError, reasonToCode } from './app-error.ts';
import type { AppError } from './app-error.ts';
import { ERROR_MESSAGES } from './messages.ts';
import { REQUEST_TIMEOUT_CAUSE } from '../requests/retry-policy.ts';

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
  /** storage-api's own status in its body (`statusCode`): an RLS refusal is HTTP 400 with '403'. */
  statusCode: string;
};

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

const NO_FIELDS: ErrorFields = {
  name: '',
  code: '',
  message: '',
  details: '',
  hint: '',
  status: null,
  statusCode: '',
};

/** Reads the fields every client error carries (PostgrestError, AuthError, Functions*Error, StorageApiError, DOMException). */
function fieldsOf(error: unknown): ErrorFields {
  if (typeof error === 'string') {
    return { ...NO_FIELDS, message: error };
  }
  if (typeof error !== 'object' || error === null) return NO_FIELDS;
  const record = error as Record<string, unknown>;
  return {
    name: text(record.name),
    code: text(record.code),
    message:
      text(record.message) ||
      text(record.msg) ||
      text(record.error_description) ||
      text(record.error),
    details: text(record.details),
    hint: text(record.hint),
    status: typeof record.status === 'number' ? record.status : null,
    statusCode: text(record.statusCode),
  };
}

function describe(fields: ErrorFields): string {
  const parts = [
    fields.name,
    fields.status !== null ? `status ${fields.status}` : '',
    fields.statusCode ? `statusCode: ${fields.statusCode}` : '',
    fields.code ? `code ${fields.code}` : '',
    fields.message,
    fields.details ? `details: ${fields.details}` : '',
    fields.hint ? `hint: ${fields.hint}` : '',
  ];
  return parts.filter(Boolean).join('; ') || 'unknown error';
}

const SERVER_REASON = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/**
 * Whether `error`, or what supabase-js wrapped it in (functions-js's `context`, storage-js's
 * `originalError`, a `cause`), is a request src/lib/request-deadline.ts stopped: auth-js keeps
 * only its message, postgrest-js prefixes the name to it.
 */
function isRequestTimeout(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const e = error as {
    message?: unknown;
    context?: unknown;
    originalError?: unknown;
    cause?: unknown;
  };
  if (typeof e.message === 'string' && e.message.includes(REQUEST_TIMEOUT_CAUSE)) return true;
  return [e.context, e.originalError, e.cause].some((inner) => isRequestTimeout(inner, depth + 1));
}

function isTimeout(f: ErrorFields): boolean {
  return (
    f.name === 'AbortError' ||
    f.name === 'TimeoutError' ||
    /^(AbortError|TimeoutError)\b/.test(f.message) ||
    f.hint.startsWith('Request was aborted') ||
    f.code === '57014'
  );
}

/**
 * auth-js reports a failed fetch and a gateway's 502/503/504 alike as AuthRetryableFetchError:
 * a network-type failure (docs/product-rules.md §8 "Profile").
 */
function isNetworkFailure(f: ErrorFields): boolean {
  return (
    f.name === 'AuthRetryableFetchError' ||
    f.name === 'FunctionsFetchError' ||
    (f.name === 'TypeError' && /fetch|network|load failed/i.test(f.message)) ||
    /^(TypeError|FetchError): /.test(f.message)
  );
}

/** GoTrue's own 500s carry a code (e.g. 'unexpected_failure') and are read as auth errors. */
function isUnavailable(f: ErrorFields): boolean {
  return (
    f.name === 'FunctionsRelayError' ||
    (f.status !== null && f.status >= 500 && !f.name.startsWith('Auth')) ||
    /^(08|53)/.test(f.code) ||
    f.code === '57P01'
  );
}

function known(code: string, message: string) {
  return { code, message };
}

/** The GoTrue error codes (supabase/local/auth, hosted Auth) the product words in Portuguese. */
const AUTH_CODES: Record<string, { code: string; message: string }> = {
  invalid_credentials: known('invalid-credentials', ERROR_MESSAGES.invalidCredentials),
  email_not_confirmed: known('email-not-confirmed', ERROR_MESSAGES.emailNotConfirmed),
  user_already_exists: known('user-already-exists', ERROR_MESSAGES.userAlreadyExists),
  email_exists: known('user-already-exists', ERROR_MESSAGES.userAlreadyExists),
  weak_password: known('weak-password', ERROR_MESSAGES.weakPassword),
  same_password: known('same-password', ERROR_MESSAGES.samePassword),
  email_address_invalid: known('email-address-invalid', ERROR_MESSAGES.emailInvalid),
  validation_failed: known('validation-failed', ERROR_MESSAGES.validationFailed),
  over_email_send_rate_limit: known('over-email-send-rate-limit', ERROR_MESSAGES.emailRateLimit),
  over_request_rate_limit: known('over-request-rate-limit', ERROR_MESSAGES.requestRateLimit),
  signup_disabled: known('signup-disabled', ERROR_MESSAGES.signupDisabled),
  // A recovery or forced-change link whose session is gone: the person opens the e-mail again.
  session_not_found: known('session-expired', ERROR_MESSAGES.sessionExpired),
  session_expired: known('session-expired', ERROR_MESSAGES.sessionExpired),
  refresh_token_not_found: known('not-authenticated', ERROR_MESSAGES.notAuthenticated),
  refresh_token_already_used: known('not-authenticated', ERROR_MESSAGES.notAuthenticated),
};

/**
 * The auth failures a person can cause or fix, which an auth form words itself (with the
 * network-type ones); for any other the form shows its own message (docs/product-rules.md §8
 * "Auth": GoTrue's own messages are English).
 */
export const AUTH_FORM_CODES: readonly string[] = [
  'timeout',
  'network',
  'weak-password',
  'same-password',
  'email-address-invalid',
  'validation-failed',
  'over-email-send-rate-limit',
  'over-request-rate-limit',
  'signup-disabled',
  'session-expired',
];

function mapAuthError(f: ErrorFields, cause: string): AppError {
  if (f.name === 'AuthSessionMissingError') {
    return appError('not-authenticated', ERROR_MESSAGES.notAuthenticated, cause);
  }
  const known = AUTH_CODES[f.code];
  if (known) return appError(known.code, known.message, cause);
  return appError(f.code ? reasonToCode(f.code) : 'auth-error', ERROR_MESSAGES.unknown, cause);
}

/**
 * storage-js's StorageApiError: storage-api answers a refusal with its own `statusCode` in the
 * body ('403' for a row-level security refusal, '404' for a missing object or bucket).
 */
function mapStorageError(f: ErrorFields, cause: string): AppError {
  switch (f.statusCode) {
    case '401':
    case '403':
      return appError('permission-denied', ERROR_MESSAGES.permissionDenied, cause);
    case '404':
      return appError('not-found', ERROR_MESSAGES.notFound, cause);
  }
  return appError('unknown', ERROR_MESSAGES.unknown, cause);
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
 * {name, status, code}, Functions*Error, StorageApiError {status, statusCode}, an aborted fetch — and never throws. Programs branch
 * on `code`; the Portuguese `message` comes from the server only when the server marked it as
 * meant for people (a snake_case reason in `hint`).
 */
export function mapServerError(error: unknown): AppError {
  const f = fieldsOf(error);
  const cause = describe(f);
  if (isTimeout(f) || isRequestTimeout(error))
    return appError('timeout', ERROR_MESSAGES.timeout, cause);
  if (isNetworkFailure(f)) return appError('network', ERROR_MESSAGES.network, cause);
  if (isUnavailable(f)) {
    return appError('server-unavailable', ERROR_MESSAGES.serverUnavailable, cause);
  }
  if (f.name.startsWith('Auth')) return mapAuthError(f, cause);
  if (f.name === 'StorageApiError') return mapStorageError(f, cause);
  if (f.name === 'FunctionsHttpError') {
    return appError('function-failed', ERROR_MESSAGES.unknown, cause);
  }
  return mapPostgrestError(f, cause);
}

/**
 * An edge function's refusal: a non-2xx `status`, or a 2xx `{success: false}`, with its parsed
 * body — `{error}`, `{message}` or `{success, message}` (supabase/functions/README.md). The
 * function's own words are Portuguese and are kept ('function-refused'); an answer without
 * any is 'function-failed' with the generic message.
 */
export function mapFunctionAnswer(status: number, body: unknown): AppError {
  const words = fieldsOf(body).message;
  const cause = `function answered status ${status}${words ? `: ${words}` : ''}`;
  if (words) return appError('function-refused', words, cause);
  return appError('function-failed', ERROR_MESSAGES.unknown, cause);
}

/** The sync engine's refusals of a local write (sync/index.ts `WriteError`): nothing was stored. */
const WRITE_ERRORS: Record<string, { code: string; message: string }> = {
  'storage-full': known('storage-full', ERROR_MESSAGES.storageFull),
  'not-allowed': known('permission-denied', ERROR_MESSAGES.permissionDenied),
  'invalid-input': known('invalid-input', ERROR_MESSAGES.invalidRequest),
  'not-found': known('not-found', ERROR_MESSAGES.notFound),
};

/** A local write the sync engine refused (`WriteResult`'s error), as an AppError. */
export function mapWriteError(error: string): AppError {
  const mapped = WRITE_ERRORS[error] ?? known('unknown', ERROR_MESSAGES.unknown);
  return appError(mapped.code, mapped.message, `local write refused: ${error}`);
}

/**
 * A table the replica could not fetch, as the sync engine records it (sync/errors.ts
 * `replicationErrorMessage`): the server's message, kept (docs/product-rules.md §8
 * "Appointments"), or what the fetch failed with. Online — the only time it is shown — a
 * request that got no answer means the server is unavailable.
 */
export function mapReplicationMessage(message: string): AppError {
  const cause = `replication failed: ${message}`;
  if (/^(TimeoutError|AbortError)\b/.test(message)) {
    return appError('timeout', ERROR_MESSAGES.timeout, cause);
  }
  if (/^(TypeError|FetchError)\b/.test(message) || /^HTTP 5\d\d$/.test(message)) {
    return appError('server-unavailable', ERROR_MESSAGES.serverUnavailable, cause);
  }
  return appError('replication-failed', message || ERROR_MESSAGES.unknown, cause);
}

/**
 * The words a screen shows for a failure: the mapped message when the screen explains that
 * code (`shown`; by default only a timeout), else the screen's own `fallback`.
 */
export function shownMessage(
  error: AppError,
  fallback: string,
  shown: readonly string[] = ['timeout'],
): string {
  return shown.includes(error.code) ? error.message : fallback;
}

export function retriesExhaustedError(last: AppError): AppError {
  return appError('retries-exhausted', ERROR_MESSAGES.retriesExhausted, last.cause);
}
