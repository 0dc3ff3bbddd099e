import type { Temporal } from 'temporal-polyfill';
import { isBookedStatus } from '../appointments/status.ts';
import { slotKey } from '../time/slot-key.ts';
import { parseInstant } from '../time/zone.ts';
import { SLOT_DURATION_MINUTES } from './constants.ts';

/** A row of agenda_ocupada (or of the doctor's own agendamentos) as far as occupancy goes. */
export type OccupiedSlotRow = {
  horario_inicio: string;
  horario_fim?: string | null;
  status: string;
};

export type BookedInterval = { start: Temporal.Instant; end: Temporal.Instant };

/** Time held by booked-status appointments; cancelled and expired ones hold nothing. */
export function bookedIntervals(rows: readonly OccupiedSlotRow[]): BookedInterval[] {
  return rows.flatMap((row) => {
    if (!isBookedStatus(row.status)) return [];
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

/** The spec's booked-slot map: São Paulo start keys ('yyyy-MM-ddTHH:mm:ss') of booked rows. */
export function bookedSlotKeys(rows: readonly OccupiedSlotRow[]): Set<string> {
  return new Set(bookedIntervals(rows).map((interval) => slotKey(interval.start)));
}
