import { REQUEST_TIMEOUT_CAUSE, REQUEST_TIMEOUT_MS } from '@/domain/requests/retry-policy.ts';

/** What a request that ran out of time rejects with; the mapper (src/domain/errors) knows it. */
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
