import { describe, expect, it } from 'vitest';
import {
  minutesOfDay,
  parseWallTime,
  toInputTime,
  toStorageTime,
  wallTimeMinutes,
} from './wall-time.ts';

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
    ['24:30', '24:30'],
    ['minute 60', '10:60'],
    ['single-digit hour', '8:00'],
    ['empty', ''],
    ['with offset', '10:00:00-03'],
  ])('rejects %s', (_name, input) => {
    expect(parseWallTime(input)).toBeNull();
    expect(toStorageTime(input)).toBeNull();
  });
});

describe('end of day (24:00, valid only as a block end)', () => {
  it.each([
    ['HH:mm', '24:00', '24:00:00', '24:00', 1440],
    ['HH:mm:ss', '24:00:00', '24:00:00', '24:00', 1440],
    ['ordinary time for comparison', '23:30:00', '23:30:00', '23:30', 1410],
  ])('%s', (_name, input, storage, inputForm, minutes) => {
    expect(toStorageTime(input)).toBe(storage);
    expect(toInputTime(input)).toBe(inputForm);
    expect(wallTimeMinutes(input)).toBe(minutes);
  });

  it.each([
    ['24:01', '24:01'],
    ['garbage', 'meia-noite'],
  ])('wallTimeMinutes rejects %s', (_name, input) => {
    expect(wallTimeMinutes(input)).toBeNull();
  });

  it('is not a PlainTime', () => {
    expect(parseWallTime('24:00')).toBeNull();
  });
});
