import { Temporal } from 'temporal-polyfill';
import { SCHEDULE_ZONE } from '../rules/booking.ts';

/**
 * Every schedule in the product is Brasília time. Always convert through the IANA zone, never a
 * fixed -03:00: São Paulo observed DST until February 2019, so older instants carry -02:00.
 */
export const SAO_PAULO = SCHEDULE_ZONE;

/**
 * Parses an instant as Postgres and PostgREST send it ('2026-11-23 13:00:00+00',
 * '2026-11-23T13:00:00.123Z'). A string without an offset is not an instant and is rejected.
 */
export function parseInstant(value: string): Temporal.Instant | null {
  try {
    return Temporal.Instant.from(value.trim());
  } catch {
    return null;
  }
}

export function toSaoPaulo(instant: Temporal.Instant): Temporal.ZonedDateTime {
  return instant.toZonedDateTimeISO(SAO_PAULO);
}

export function saoPauloToday(now: Temporal.Instant): Temporal.PlainDate {
  return toSaoPaulo(now).toPlainDate();
}

/**
 * The instant of a São Paulo wall-clock time, or null when that wall time never happened (the
 * skipped hour of a historical DST start). An ambiguous time (DST end) takes the earlier instant.
 */
export function saoPauloInstant(
  date: Temporal.PlainDate,
  time: Temporal.PlainTime,
): Temporal.Instant | null {
  const wallClock = date.toPlainDateTime(time);
  const zoned = wallClock.toZonedDateTime(SAO_PAULO, { disambiguation: 'earlier' });
  return Temporal.PlainDateTime.compare(zoned.toPlainDateTime(), wallClock) === 0
    ? zoned.toInstant()
    : null;
}
