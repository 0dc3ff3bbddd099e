import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import {
  WEEKDAY_SHORT_PT,
  dayLabel,
  formatCalendarDate,
  formatInstantDate,
  formatLongDate,
  formatShortTime,
} from './display.ts';

describe('dayLabel', () => {
  const today = Temporal.PlainDate.from('2026-11-23'); // a Monday
  it.each([
    ['today', '2026-11-23', 'Hoje'],
    ['tomorrow (Tuesday)', '2026-11-24', 'ter.'],
    ['Saturday', '2026-11-28', 'sáb.'],
    ['Sunday', '2026-11-29', 'dom.'],
    ['next Monday', '2026-11-30', 'seg.'],
  ])('%s', (_name, date, expected) => {
    expect(dayLabel(Temporal.PlainDate.from(date), today)).toBe(expected);
  });

  it('spells weekdays as pt-BR Intl does', () => {
    const sunday = Temporal.PlainDate.from('2026-11-22');
    const intl = WEEKDAY_SHORT_PT.map((_, i) =>
      sunday.add({ days: i }).toLocaleString('pt-BR', { weekday: 'short' }),
    );
    expect([...WEEKDAY_SHORT_PT]).toEqual(intl);
  });
});

describe('success-page date and time (Brasília)', () => {
  it.each([
    ['morning', '2026-11-23T13:00:00Z', 'segunda-feira, 23 de novembro de 2026', '10:00'],
    [
      'late evening is the previous day in Brasília',
      '2026-11-24T01:30:00Z',
      'segunda-feira, 23 de novembro de 2026',
      '22:30',
    ],
    ['São Paulo midnight', '2026-03-01T03:00:00Z', 'domingo, 1 de março de 2026', '00:00'],
    ['DST 2018 (-02:00)', '2018-12-01T12:00:00Z', 'sábado, 1 de dezembro de 2018', '10:00'],
  ])('%s', (_name, iso, date, time) => {
    const instant = Temporal.Instant.from(iso);
    expect(formatLongDate(instant)).toBe(date);
    expect(formatShortTime(instant)).toBe(time);
  });

  it.each([
    ['issued in the afternoon', '2026-11-23T18:00:00Z', '23/11/2026'],
    ['issued at 23:00 Brasília (02:00 UTC next day)', '2026-11-24T02:00:00Z', '23/11/2026'],
  ])('issue date: %s', (_name, iso, expected) => {
    expect(formatInstantDate(Temporal.Instant.from(iso))).toBe(expected);
  });
});

describe('formatCalendarDate (birth and service dates, shown as stored)', () => {
  it.each([
    ['a date column', '1990-05-10', '10/05/1990'],
    ['UTC midnight timestamp stays on its day', '1990-05-10T00:00:00Z', '10/05/1990'],
    ['UTC midnight with Postgres offset', '1990-05-10 00:00:00+00', '10/05/1990'],
    ['missing', null, null],
    ['empty', '', null],
    ['garbage', 'ontem', null],
  ])('%s', (_name, input, expected) => {
    expect(formatCalendarDate(input)).toBe(expected);
  });
});
