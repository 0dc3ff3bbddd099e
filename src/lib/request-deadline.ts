import { ERROR_MESSAGES } from '@/domain/errors/messages.ts';
import { REQUEST_TIMEOUT_MS } from '@/domain/requests/retry-policy.ts';

/**
 * What a request that ran out of time rejects with. supabase-js keeps only the message of a
 * failed fetch (auth-js wraps it in AuthRetryableFetchError, postgrest-js prefixes the name,
 * functions-js and storage-js keep the error as context), so the message is what marks it.
 */
export const REQUEST_TIMEOUT_CAUSE = `request timed out after ${REQUEST_TIMEOUT_MS} ms`;

export class RequestTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  constructor() {
    super(REQUEST_TIMEOUT_CAUSE);
  }
}

/** Calls `fire` after `ms`; returns what cancels it. Tests pass their own clock. */
export type Timer = (ms: number, fire: () => void) => () => void;

const realTimer: Timer = (ms, fire) => {
  const id = setTimeout(fire, ms);
  return () => clearTimeout(id);
};

/**
 * `fetchImpl` with a deadline: a request not answered within `ms` is aborted with a
 * RequestTimeoutError. A request that carries a signal of its own keeps it as its only
 * deadline — the replica's pulls and pushes set a longer one (sync/session.ts).
 */
export function withDeadline(
  fetchImpl: typeof fetch,
  { ms = REQUEST_TIMEOUT_MS, timer = realTimer }: { ms?: number; timer?: Timer } = {},
): typeof fetch {
  return async (input, init) => {
    if (init?.signal) return fetchImpl(input, init);
    const controller = new AbortController();
    const cancel = timer(ms, () => controller.abort(new RequestTimeoutError()));
    try {
      return await fetchImpl(input, { ...init, signal: controller.signal });
    } finally {
      cancel();
    }
  };
}

/**
 * Whether `error` (or what it wraps: supabase-js's `context`, `originalError`, `cause`) is a
 * request that ran out of time.
 */
export function isRequestTimeout(error: unknown, depth = 0): boolean {
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

/** The description a failed request shows: the timeout's text when it ran out of time. */
export function timeoutOr(error: unknown, otherwise: string): string {
  return isRequestTimeout(error) ? ERROR_MESSAGES.timeout : otherwise;
}
