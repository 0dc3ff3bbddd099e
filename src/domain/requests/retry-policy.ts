import type { AppError } from '../errors/app-error.ts';

/** Spec §9: a request gives up after 6 s and is retried up to 3 times, 1.5^n s apart. */
export const REQUEST_TIMEOUT_MS = 6000;
export const MAX_AUTOMATIC_RETRIES = 3;

/** Spec §9: the profile is read up to 3 times, 500 ms apart (it may lag the sign-up trigger). */
export const PROFILE_FETCH_ATTEMPTS = 3;
export const PROFILE_FETCH_DELAY_MS = 500;

/** Wait before retry number `retry` (1 = first retry): 1.5 s, 2.25 s, 3.375 s. */
export function retryDelayMs(retry: number): number {
  return Math.round(1000 * 1.5 ** retry);
}

const TRANSIENT = new Set(['timeout', 'network', 'server-unavailable']);

/**
 * Only failures that may pass on their own are retried; a refusal (slot taken, rule broken,
 * no permission) would be refused again.
 */
export function isRetryable(error: AppError): boolean {
  return TRANSIENT.has(error.code);
}

/** Whether attempt number `retriesSoFar + 1` should happen after `error`. */
export function shouldRetry(error: AppError, retriesSoFar: number): boolean {
  return isRetryable(error) && retriesSoFar < MAX_AUTOMATIC_RETRIES;
}
