import { describe, expect, it } from 'vitest';
import { minutesOfDay, parseWallTime, toInputTime, toStorageTime } from './wall-time.ts';

describe('wall times', () => {
  it.each([
    ['HH:mm', '08:00', '08:00:00', '08:00', 480],
    ['HH:mm:ss from Postgres', '12:30:00', '12:30:00', '12:30', 750],
    ['last minute of the day', '23:59', '23:59:00', '23:59', 1439],
    ['midnight', '00:00:00', '00:00:00', '00:00', 0],
  ])('%s: %s → storage %s, input %s', (_name, input, storage, inputForm, minutes) => {
    expect(toStorageTime(input)).toBe(storage);
    expect(toInputTime(input)).toBe(inputForm);
    expect(minutesOfDay(parseWallTime(input)!)).toBe(minutes);
  });

  it.each([
    ['24:00', '24:00'],
    ['minute 60', '10:60'],
    ['single-digit hour', '8:00'],
    ['empty', ''],
    ['with offset', '10:00:00-03'],
  ])('rejects %s', (_name, input) => {
    expect(parseWallTime(input)).toBeNull();
    expect(toStorageTime(input)).toBeNull();
  });
});
