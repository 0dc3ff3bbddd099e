import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { timeAgo } from './relative.ts';

const now = Temporal.Instant.from('2026-11-21T20:00:00Z');

describe('timeAgo', () => {
  it.each([
    ['2026-11-21T19:59:30Z', null],
    ['2026-11-21T19:59:00Z', 'há 1 min'],
    ['2026-11-21T19:55:00Z', 'há 5 min'],
    ['2026-11-21T19:00:30Z', 'há 59 min'],
    ['2026-11-21T19:00:00Z', 'há 1 h'],
    ['2026-11-20T20:00:01Z', 'há 23 h'],
    ['2026-11-20T19:00:00Z', 'há 1 dia'],
    ['2026-11-18T20:00:00Z', 'há 3 dias'],
    ['2026-11-21T20:05:00Z', null],
  ])('%s → %s', (at, label) => {
    expect(timeAgo(Temporal.Instant.from(at), now)).toBe(label);
  });
});
