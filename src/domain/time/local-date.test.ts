import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import {
  formatBrDate,
  formatDayMonth,
  formatIsoDate,
  parseBrDate,
  parseIsoDate,
} from './local-date.ts';

describe('parseIsoDate', () => {
  it.each([
    ['a normal day', '2026-11-23', '2026-11-23'],
    ['a leap day', '2024-02-29', '2024-02-29'],
    ['surrounding spaces', ' 2026-01-05 ', '2026-01-05'],
  ])('reads %s', (_name, input, expected) => {
    expect(parseIsoDate(input)?.toString()).toBe(expected);
  });

  it.each([
    ['30 February', '2023-02-30'],
    ['29 February of a common year', '2023-02-29'],
    ['month 13', '2026-13-01'],
    ['Brazilian order', '23/11/2026'],
    ['a timestamp', '2026-11-23T00:00:00Z'],
    ['empty', ''],
  ])('rejects %s', (_name, input) => {
    expect(parseIsoDate(input)).toBeNull();
  });
});

describe('parseBrDate', () => {
  it.each([
    ['dd/MM/yyyy', '23/11/2026', '2026-11-23'],
    ['leading zeros', '05/01/1990', '1990-01-05'],
    ['leap day', '29/02/2000', '2000-02-29'],
  ])('reads %s', (_name, input, expected) => {
    expect(parseBrDate(input)?.toString()).toBe(expected);
  });

  it.each([
    ['31 April', '31/04/2000'],
    ['a half-typed mask', '23/11/20'],
    ['American order that overflows', '12/31/2000'],
    ['ISO order', '2000-01-05'],
  ])('rejects %s', (_name, input) => {
    expect(parseBrDate(input)).toBeNull();
  });
});

describe('formatting', () => {
  it.each([
    ['2026-11-23', '2026-11-23', '23/11/2026', '23/11'],
    ['2026-01-05', '2026-01-05', '05/01/2026', '05/01'],
    ['0999-12-31', '0999-12-31', '31/12/0999', '31/12'],
  ])('%s → iso %s, display %s, grid %s', (input, iso, display, dayMonth) => {
    const date = Temporal.PlainDate.from(input);
    expect(formatIsoDate(date)).toBe(iso);
    expect(formatBrDate(date)).toBe(display);
    expect(formatDayMonth(date)).toBe(dayMonth);
  });
});
