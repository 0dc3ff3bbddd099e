import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { saoPauloYear } from './copyright-year.ts';

const zoned = (text: string) => Temporal.ZonedDateTime.from(text);

describe('saoPauloYear', () => {
  it.each([
    ['an ordinary day', '2026-07-15T12:00:00-03:00[America/Sao_Paulo]'],
    ['the last minute of the year', '2026-12-31T23:59:00-03:00[America/Sao_Paulo]'],
    ['the first minute of the year', '2027-01-01T00:00:00-03:00[America/Sao_Paulo]'],
    ['New Year in the former summer time', '2018-01-01T00:30:00-02:00[America/Sao_Paulo]'],
    ['New Year’s Eve in the former summer time', '2017-12-31T23:30:00-02:00[America/Sao_Paulo]'],
  ])('is the São Paulo year on %s', (_, text) => {
    const time = zoned(text);
    expect(saoPauloYear(time.epochMilliseconds)).toBe(time.year);
  });
});
