import type { Temporal } from 'temporal-polyfill';
import { parseInstant } from '../time/zone.ts';
import { SLOT_DURATION_MINUTES } from './constants.ts';

/**
 * A slot known to be held: the sync engine's occupied slots (agenda_ocupada and this person's
 * queued bookings, already filtered to the booked statuses), so no status is read again here.
 */
export type HeldSlot = { horario_inicio: string; horario_fim?: string | null };

export type BookedInterval = { start: Temporal.Instant; end: Temporal.Instant };

/** The time each held slot takes; a missing or unreadable end means the standard 30 minutes. */
export function heldIntervals(slots: readonly HeldSlot[]): BookedInterval[] {
  return slots.flatMap((row) => {
    const start = parseInstant(row.horario_inicio);
    if (!start) return [];
    const end =
      (row.horario_fim ? parseInstant(row.horario_fim) : null) ??
      start.add({ minutes: SLOT_DURATION_MINUTES });
    return [{ start, end }];
  });
}

/**
 * Half-open overlap: [start, end) meets a booking unless one ends when the other starts. The
 * server refuses overlapping bookings (not only equal starts), so on a 15-minute grid a booking
 * at 10:00 also takes 10:15.
 */
export function overlapsBooking(
  start: Temporal.Instant,
  end: Temporal.Instant,
  booked: readonly BookedInterval[],
): boolean {
  return booked.some(
    (b) =>
      b.start.epochNanoseconds < end.epochNanoseconds &&
      start.epochNanoseconds < b.end.epochNanoseconds,
  );
}
