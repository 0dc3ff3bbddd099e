import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { parseInstant, saoPauloInstant, saoPauloToday, toSaoPaulo } from './zone.ts';

describe('parseInstant', () => {
  it.each([
    ['Postgres text form', '2026-11-23 13:00:00+00', '2026-11-23T13:00:00Z'],
    ['ISO with Z', '2026-11-23T13:00:00Z', '2026-11-23T13:00:00Z'],
    ['microseconds and +00:00', '2026-11-23T13:00:00.123456+00:00', '2026-11-23T13:00:00.123456Z'],
    ['São Paulo offset', '2026-11-23T10:00:00-03:00', '2026-11-23T13:00:00Z'],
  ])('reads %s', (_name, input, expected) => {
    expect(parseInstant(input)?.toString()).toBe(expected);
  });

  it.each([
    ['no offset (a wall time, not an instant)', '2026-11-23T13:00:00'],
    ['a date', '2026-11-23'],
    ['garbage', 'amanhã'],
    ['empty', ''],
  ])('rejects %s', (_name, input) => {
    expect(parseInstant(input)).toBeNull();
  });
});

describe('toSaoPaulo and saoPauloToday', () => {
  it.each([
    ['UTC midday is São Paulo morning', '2026-11-23T13:00:00Z', '2026-11-23T10:00:00-03:00'],
    ['02:59 UTC is still the previous day', '2026-11-24T02:59:00Z', '2026-11-23T23:59:00-03:00'],
    ['03:00 UTC is São Paulo midnight', '2026-11-24T03:00:00Z', '2026-11-24T00:00:00-03:00'],
    [
      'DST summer 2018 uses -02:00, not a fixed offset',
      '2018-12-01T12:00:00Z',
      '2018-12-01T10:00:00-02:00',
    ],
    [
      'after DST abolition (Nov 2019) stays -03:00',
      '2019-12-01T12:00:00Z',
      '2019-12-01T09:00:00-03:00',
    ],
  ])('%s', (_name, iso, expected) => {
    const zoned = toSaoPaulo(Temporal.Instant.from(iso));
    expect(zoned.toString({ timeZoneName: 'never' })).toBe(expected);
  });

  it.each([
    ['late evening in São Paulo is already tomorrow in UTC', '2026-11-24T01:30:00Z', '2026-11-23'],
    ['just after São Paulo midnight', '2026-11-24T03:00:01Z', '2026-11-24'],
    ['New Year in UTC is still 31 Dec in São Paulo', '2027-01-01T02:00:00Z', '2026-12-31'],
  ])('today: %s', (_name, iso, expected) => {
    expect(saoPauloToday(Temporal.Instant.from(iso)).toString()).toBe(expected);
  });
});

describe('saoPauloInstant', () => {
  it.each([
    ['ordinary day', '2026-11-23', '10:00', '2026-11-23T13:00:00Z'],
    ['wall-clock midnight', '2026-11-24', '00:00', '2026-11-24T03:00:00Z'],
    ['DST 2018 day (offset -02:00)', '2018-12-01', '10:00', '2018-12-01T12:00:00Z'],
    [
      'repeated hour at DST end takes the earlier instant',
      '2019-02-16',
      '23:30',
      '2019-02-17T01:30:00Z',
    ],
  ])('%s', (_name, date, time, expected) => {
    const instant = saoPauloInstant(Temporal.PlainDate.from(date), Temporal.PlainTime.from(time));
    expect(instant?.toString()).toBe(expected);
  });

  it('returns null for the wall time skipped when DST began (2018-11-04 00:30)', () => {
    expect(
      saoPauloInstant(Temporal.PlainDate.from('2018-11-04'), Temporal.PlainTime.from('00:30')),
    ).toBeNull();
  });
});
