import { describe, expect, it } from 'vitest';
import { heldIntervals } from './booked.ts';

describe('heldIntervals', () => {
  it.each([
    ['end defaults to start + 30 min', null, '2026-11-23T11:30:00Z'],
    ['stored end is used', '2026-11-23T11:20:00+00', '2026-11-23T11:20:00Z'],
    ['unreadable end falls back to 30 min', 'x', '2026-11-23T11:30:00Z'],
  ])('%s', (_name, horario_fim, end) => {
    const [interval] = heldIntervals([{ horario_inicio: '2026-11-23 11:00:00+00', horario_fim }]);
    expect(interval?.end.toString()).toBe(end);
  });

  it('reads starts in any offset as the same instant', () => {
    const [interval] = heldIntervals([{ horario_inicio: '2026-11-23T08:00:00-03:00' }]);
    expect(interval?.start.toString()).toBe('2026-11-23T11:00:00Z');
  });

  it('ignores rows whose start cannot be read', () => {
    expect(heldIntervals([{ horario_inicio: 'not a time' }])).toEqual([]);
  });
});
