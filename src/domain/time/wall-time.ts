import { Temporal } from 'temporal-polyfill';

const WALL_TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** Postgres `time` accepts '24:00:00': a block may run to the end of the day. */
const END_OF_DAY = /^24:00(?::00)?$/;
const MINUTES_PER_DAY = 24 * 60;

/** 'HH:mm' (inputs, booking details) or 'HH:mm:ss' (Postgres `time`) → PlainTime. */
export function parseWallTime(value: string): Temporal.PlainTime | null {
  const match = WALL_TIME.exec(value.trim());
  if (!match) return null;
  return Temporal.PlainTime.from({
    hour: Number(match[1]),
    minute: Number(match[2]),
    second: Number(match[3] ?? 0),
  });
}

/** 'HH:mm' for inputs and display. */
export function formatWallTime(time: Temporal.PlainTime): string {
  return time.toString({ smallestUnit: 'minute' });
}

/** 'HH:mm:ss', the storage form of `time` columns. */
export function formatStorageTime(time: Temporal.PlainTime): string {
  return time.toString({ smallestUnit: 'second' });
}

export function toStorageTime(value: string): string | null {
  if (END_OF_DAY.test(value.trim())) return '24:00:00';
  const time = parseWallTime(value);
  return time ? formatStorageTime(time) : null;
}

export function toInputTime(value: string): string | null {
  if (END_OF_DAY.test(value.trim())) return '24:00';
  const time = parseWallTime(value);
  return time ? formatWallTime(time) : null;
}

/**
 * Minutes since midnight of a stored or typed wall time, 0..1440 — '24:00' is 1440, the end of
 * the day, valid as a block end. Seconds are ignored: the grid works in whole minutes.
 */
export function wallTimeMinutes(value: string): number | null {
  if (END_OF_DAY.test(value.trim())) return MINUTES_PER_DAY;
  const time = parseWallTime(value);
  return time ? minutesOfDay(time) : null;
}

export function minutesOfDay(time: Temporal.PlainTime): number {
  return time.hour * 60 + time.minute;
}
