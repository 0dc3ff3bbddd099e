import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { availabilityBlockSchema, bookingRequestSchema } from './sync-inputs.ts';

const block = { dia_semana: 1, hora_inicio: '08:00', hora_fim: '12:00', intervalo_em_minutos: 15 };

describe('availabilityBlockSchema', () => {
  it.each([
    [
      { hora_inicio: '08:00', hora_fim: '12:00' },
      { hora_inicio: '08:00:00', hora_fim: '12:00:00' },
    ],
    [
      { hora_inicio: '22:00:00', hora_fim: '24:00' },
      { hora_inicio: '22:00:00', hora_fim: '24:00:00' },
    ],
  ])('%o → storage times %o', (times, stored) => {
    expect(v.parse(availabilityBlockSchema, { ...block, ...times })).toMatchObject(stored);
  });

  it.each([
    { hora_inicio: '12:00', hora_fim: '12:00' },
    { hora_inicio: '13:00', hora_fim: '12:00' },
    { hora_inicio: '25:00', hora_fim: '26:00' },
    { hora_inicio: '8h', hora_fim: '12:00' },
    { intervalo_em_minutos: 7 },
    { dia_semana: 7 },
    { id: 'not-a-uuid' },
  ])('refuses %o', (change) => {
    expect(v.is(availabilityBlockSchema, { ...block, ...change })).toBe(false);
  });
});

describe('bookingRequestSchema', () => {
  it('takes a doctor id and an instant with an offset, out as UTC', () => {
    const medicoId = '00000000-0000-4000-8000-000000000001';
    expect(
      v.parse(bookingRequestSchema, { medicoId, horarioInicio: '2026-11-24T14:30:00-03:00' }),
    ).toEqual({ medicoId, horarioInicio: '2026-11-24T17:30:00Z' });
    expect(v.is(bookingRequestSchema, { medicoId, horarioInicio: '2026-11-24T14:30:00' })).toBe(
      false,
    );
  });
});
