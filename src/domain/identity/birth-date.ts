import { Temporal } from 'temporal-polyfill';
import { formatIsoDate, parseBrDate } from '../time/local-date.ts';
import { saoPauloToday } from '../time/zone.ts';
import { applyDigitMask } from './digits.ts';

export const MINIMUM_AGE_YEARS = 18;
export const BIRTH_DATE_MASK = '00/00/0000';

export function maskBirthDate(value: string): string {
  return applyDigitMask(value, BIRTH_DATE_MASK);
}

/** 'dd/MM/yyyy' as typed → 'yyyy-MM-dd' as sent and stored; impossible dates → null. */
export function birthDateToIso(value: string): string | null {
  const date = parseBrDate(value);
  return date ? formatIsoDate(date) : null;
}

/** The profile column refuses birth dates before 1900 (typos such as 0990 for 1990). */
export const EARLIEST_BIRTH_DATE = Temporal.PlainDate.from('1900-01-01');

export function isPlausibleBirthDate(birth: Temporal.PlainDate): boolean {
  return Temporal.PlainDate.compare(birth, EARLIEST_BIRTH_DATE) >= 0;
}

/** Whole years completed on `today`; someone born on 29 Feb comes of age on 1 Mar. */
export function ageOn(birth: Temporal.PlainDate, today: Temporal.PlainDate): number {
  const hadBirthday =
    today.month > birth.month || (today.month === birth.month && today.day >= birth.day);
  return today.year - birth.year - (hadBirthday ? 0 : 1);
}

/** Minimum age is judged on today's date in São Paulo, not the device's zone. */
export function isOfMinimumAge(birth: Temporal.PlainDate, now: Temporal.Instant): boolean {
  return ageOn(birth, saoPauloToday(now)) >= MINIMUM_AGE_YEARS;
}
