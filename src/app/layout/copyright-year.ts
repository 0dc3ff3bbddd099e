import { SCHEDULE_ZONE } from '@/domain/rules/booking.ts';

const HOUR_MS = 3_600_000;

/**
 * The offsets São Paulo's clocks have kept: -03:00, and -02:00 in the summer time it observed
 * until 2019 (src/domain/time/zone.ts).
 */
const SAO_PAULO_OFFSETS_HOURS = [-3, -2] as const;

let zoneFormat: Intl.DateTimeFormat | undefined;

/**
 * The year in São Paulo at `epochMs`, for the footer's copyright line. The footer is on every
 * first screen, and building a formatter with a time zone costs a phone tens of milliseconds
 * there (the browser loads the zone's data; the profile of the patient's dashboard showed it
 * as one task of ~90 ms at a 4× slowdown). At both of São Paulo's offsets the year is the same
 * on every day but the hours around New Year, so only then is the zone asked.
 */
export function saoPauloYear(epochMs: number): number {
  const [standard, summer] = SAO_PAULO_OFFSETS_HOURS.map((hours) =>
    new Date(epochMs + hours * HOUR_MS).getUTCFullYear(),
  );
  if (standard === summer) return standard!;
  zoneFormat ??= new Intl.DateTimeFormat('en-US', { timeZone: SCHEDULE_ZONE, year: 'numeric' });
  return Number(zoneFormat.format(epochMs));
}
