import { describe, expect, it } from 'vitest';
import { bookedSlotKeys } from './booked.ts';

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
