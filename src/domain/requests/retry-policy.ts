/**
 * How long an interactive request may take and how reads are retried (docs/product-rules.md
 * §9 "requests"). The replica's own traffic has a longer deadline of its own
 * (sync/session.ts) and the outbox retries until delivered (docs/product-rules.md
 * "Deliberate differences").
 */

/** A request the person is waiting on gives up after this long. */
export const REQUEST_TIMEOUT_MS = 6000;

/**
 * What a request that ran out of time rejects with (src/lib/request-deadline.ts). supabase-js
 * keeps only the message of a failed fetch, so the message is what marks it
 * (src/domain/errors/map-server-error.ts reads it).
 */
export const REQUEST_TIMEOUT_CAUSE = `request timed out after ${REQUEST_TIMEOUT_MS} ms`;

/** Automatic retries of a failed read, after its first attempt. */
export const READ_RETRIES = 3;

/** The wait before retry `n` (1, 2, 3): 1.5ⁿ seconds. */
export function readRetryDelayMs(n: number): number {
  return Math.round(1000 * 1.5 ** n);
}
