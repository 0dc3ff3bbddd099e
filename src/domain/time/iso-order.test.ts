import { describe, expect, it } from 'vitest';
import { compareIsoText } from './iso-order.ts';

describe('compareIsoText', () => {
  it.each([
    ['earlier date', '2026-03-09', '2026-03-10', -1],
    ['later month', '2026-11', '2026-02', 1],
    ['same time', '08:30:00', '08:30:00', 0],
    ['time across the hour', '09:00:00', '10:30:00', -1],
    ['instants', '2026-11-23T13:00:00.000Z', '2026-11-23T02:30:00.000Z', 1],
  ])('%s', (_name, a, b, sign) => {
    expect(Math.sign(compareIsoText(a, b))).toBe(sign);
    expect(Math.sign(a.localeCompare(b))).toBe(sign);
  });
});
