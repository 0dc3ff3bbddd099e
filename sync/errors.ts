import { codeToReason } from '../src/domain/errors/app-error.ts';
import { mapServerError } from '../src/domain/errors/map-server-error.ts';

/** The shape supabase-js gives every PostgREST/RPC failure (`{error, status}`). */
export type ServerFailure = {
  status: number;
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
};

/**
 * Transient failures are retried with backoff; everything else is the server's decision and
 * is reconciled, never retried (O4, P4). A network failure reaches supabase-js as status 0;
 * 401 is an expired token that the client refreshes; 5xx, 408 and 429 may succeed later.
 */
export function isTransient(failure: ServerFailure): boolean {
  const { status } = failure;
  return status === 0 || status === 401 || status === 408 || status === 429 || status >= 500;
}

/**
 * The server's "no" for good, as the person is told it: the app's one mapper
 * (src/domain/errors/map-server-error.ts) gives the reason — the server's `hint` for business
 * rules, a taken slot for 23505 on the slot's index — so the UI never reads the message to
 * decide, and the Portuguese message; the reason keeps the server's snake_case.
 */
export function refusalOf(failure: ServerFailure): { reason: string; message: string } {
  const error = mapServerError(failure);
  return { reason: codeToReason(error.code), message: error.message };
}

type PostgrestLikeError = {
  code?: string;
  message?: string;
  details?: string | null;
  hint?: string | null;
} | null;

export function toFailure(error: PostgrestLikeError, status: number): ServerFailure {
  return {
    status,
    code: error?.code ?? '',
    message: error?.message ?? '',
    details: error?.details ?? null,
    hint: error?.hint ?? null,
  };
}

/** Thrown inside replication handlers so RxDB retries (and reports on error$). */
export class TransientSyncError extends Error {
  override readonly name = 'TransientSyncError';
  /** Kept by RxDB when it reports the error as plain JSON (its `errorToPlainJson`). */
  readonly extensions: { status: number; serverMessage: string };
  constructor(
    readonly failure: ServerFailure,
    readonly table: string,
  ) {
    super(`${table}: ${failure.status} ${failure.code} ${failure.message}`.trim());
    this.extensions = { status: failure.status, serverMessage: serverMessageOf(failure) };
  }
}

/**
 * What a failed replication step records (`replicationErrorMessage`). Business rules put
 * Portuguese in `message`; a unique violation's `message` is Postgres's English, and the
 * contract puts the Portuguese in `details` ('Este horário já foi reservado.').
 */
function serverMessageOf(failure: ServerFailure): string {
  if (failure.code.startsWith('23') && failure.details) return failure.details;
  return failure.message;
}

/**
 * Whether a failed local write ran out of storage. IndexedDB reports a full disk as a
 * `QuotaExceededError` DOMException; Dexie wraps it (`inner`), RxDB wraps that again
 * (`parameters.error`, `cause`), so the chain is searched a few levels deep.
 */
export function isQuotaExceeded(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const e = error as { name?: unknown; inner?: unknown; cause?: unknown; parameters?: unknown };
  if (e.name === 'QuotaExceededError') return true;
  const parameters = e.parameters as { error?: unknown; errors?: unknown } | undefined;
  const nested = [e.inner, e.cause, parameters?.error];
  if (Array.isArray(parameters?.errors)) nested.push(...(parameters.errors as unknown[]));
  return nested.some((n) => isQuotaExceeded(n, depth + 1));
}

type Reported = { status: number; serverMessage: string };

function isReported(value: unknown): value is Reported {
  const r = value as Partial<Reported> | null;
  return typeof r?.status === 'number' && typeof r.serverMessage === 'string';
}

/**
 * A TransientSyncError's extensions inside what RxDB reports: its `parameters.errors`, where
 * it keeps each error as plain JSON, or a cause.
 */
function reportedIn(error: unknown, depth = 0): Reported | null {
  if (depth > 4 || typeof error !== 'object' || error === null) return null;
  const e = error as {
    extensions?: unknown;
    parameters?: { errors?: unknown; error?: unknown };
    cause?: unknown;
  };
  if (isReported(e.extensions)) return e.extensions;
  const nested = [e.parameters?.error, e.cause];
  if (Array.isArray(e.parameters?.errors)) nested.push(...(e.parameters.errors as unknown[]));
  for (const inner of nested) {
    const found = reportedIn(inner, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * What a failed replication step records (docs/product-rules.md §8 "Appointments": 'Erro ao
 * buscar consultas' with the server's message): the server's own message when it answered,
 * else what the fetch failed with ('TypeError: fetch failed', 'TimeoutError: …'), which the
 * one mapper words for the person (src/domain/errors/map-server-error.ts).
 */
export function replicationErrorMessage(error: unknown): string {
  const reported = reportedIn(error);
  if (!reported) return error instanceof Error ? error.message : String(error);
  return reported.serverMessage || `HTTP ${reported.status}`;
}
