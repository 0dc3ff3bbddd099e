import { describe, expect, it } from 'vitest';
import { bookedIntervals, bookedSlotKeys } from './booked.ts';

describe('bookedSlotKeys', () => {
  it.each([
    ['confirmado holds the slot', 'confirmado', true],
    ['atendido holds the slot', 'atendido', true],
    ['reagendado holds the slot', 'reagendado', true],
    ['pendente holds the slot', 'pendente', true],
    ['cancelado frees it', 'cancelado', false],
    ['expirado frees it', 'expirado', false],
  ])('%s', (_name, status, held) => {
    const keys = bookedSlotKeys([{ horario_inicio: '2026-11-23 11:00:00+00', status }]);
    expect(keys.has('2026-11-23T08:00:00')).toBe(held);
  });

  it.each([
    [
      'UTC evening crossing into the São Paulo day before',
      '2026-11-24T01:30:00Z',
      '2026-11-23T22:30:00',
    ],
    ['explicit São Paulo offset', '2026-11-23T08:00:00-03:00', '2026-11-23T08:00:00'],
  ])('keys in São Paulo time: %s', (_name, iso, key) => {
    expect([...bookedSlotKeys([{ horario_inicio: iso, status: 'confirmado' }])]).toEqual([key]);
  });

  it('ignores rows whose start cannot be read', () => {
    expect(bookedSlotKeys([{ horario_inicio: 'not a time', status: 'confirmado' }]).size).toBe(0);
  });
});

describe('bookedIntervals', () => {
  it.each([
    ['end defaults to start + 30 min', null, '2026-11-23T11:30:00Z'],
    ['stored end is used', '2026-11-23T11:20:00+00', '2026-11-23T11:20:00Z'],
    ['unreadable end falls back to 30 min', 'x', '2026-11-23T11:30:00Z'],
  ])('%s', (_name, horario_fim, end) => {
    const [interval] = bookedIntervals([
      { horario_inicio: '2026-11-23 11:00:00+00', horario_fim, status: 'pendente' },
    ]);
    expect(interval?.end.toString()).toBe(end);
  });
});
