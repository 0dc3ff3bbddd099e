import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { slotKey } from './slot-key.ts';

describe('slotKey', () => {
  it.each([
    ['UTC instant', '2026-11-23T13:00:00Z', '2026-11-23T10:00:00'],
    [
      'Postgres microseconds are dropped',
      '2026-11-23T13:00:00.000123+00:00',
      '2026-11-23T10:00:00',
    ],
    ['UTC next day, São Paulo same day', '2026-11-24T02:30:00Z', '2026-11-23T23:30:00'],
    ['DST 2018 instant', '2018-12-01T12:00:00Z', '2018-12-01T10:00:00'],
  ])('%s', (_name, iso, expected) => {
    expect(slotKey(Temporal.Instant.from(iso))).toBe(expected);
  });
});
