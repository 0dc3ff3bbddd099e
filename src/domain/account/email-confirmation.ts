import type { Temporal } from 'temporal-polyfill';
import { parseInstant } from '../time/zone.ts';

/** Spec §9: a sign-in this soon after confirming the e-mail greets with the confirmation toast. */
export const CONFIRMATION_TOAST_WINDOW_SECONDS = 60;

export function isRecentlyConfirmed(
  emailConfirmedAt: string | null | undefined,
  now: Temporal.Instant,
): boolean {
  const confirmedAt = emailConfirmedAt ? parseInstant(emailConfirmedAt) : null;
  if (!confirmedAt) return false;
  const elapsed = now.since(confirmedAt).total('seconds');
  return elapsed >= 0 && elapsed <= CONFIRMATION_TOAST_WINDOW_SECONDS;
}
