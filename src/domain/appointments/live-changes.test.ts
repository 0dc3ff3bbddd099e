import { describe, expect, it } from 'vitest';
import { isScheduleChange, scheduleSnapshot } from './live-changes.ts';

const snap = (...rows: [string, string | null][]) =>
  scheduleSnapshot(rows.map(([id, status]) => ({ id, status })));

describe('isScheduleChange', () => {
  it('a new booking or a cancellation of a booked slot is a change', () => {
    expect(
      isScheduleChange(snap(['a', 'confirmado']), snap(['a', 'confirmado'], ['b', 'confirmado'])),
    ).toBe(true);
    expect(isScheduleChange(snap(['a', 'confirmado']), snap(['a', 'cancelado']))).toBe(true);
  });

  it('payments, check-ins, expiries and already-closed rows arriving are not', () => {
    const before = snap(['a', 'confirmado'], ['b', 'atendido'], ['c', 'confirmado']);
    expect(
      isScheduleChange(before, snap(['a', 'confirmado'], ['b', 'atendido'], ['c', 'atendido'])),
    ).toBe(false);
    expect(
      isScheduleChange(before, snap(['a', 'expirado'], ['b', 'atendido'], ['c', 'confirmado'])),
    ).toBe(false);
    expect(isScheduleChange(snap(), snap(['old', 'cancelado']))).toBe(false);
    expect(isScheduleChange(snap(['x', 'cancelado']), snap(['x', 'cancelado']))).toBe(false);
  });
});
