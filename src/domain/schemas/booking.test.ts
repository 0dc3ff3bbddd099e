import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { expandBlocks } from '../availability/slots.ts';
import { bookingDetailsSchema, checkoutStateSchema, createBookingDetails } from './booking.ts';
import { validate } from './validate.ts';

const MEDICO_ID = '3f6c1a52-8a4e-4c1e-9a57-0b8f3c2d1e10';
const APPOINTMENT_ID = '9b2d7e61-5c3a-4f8b-8d21-6a4e0c9f7b32';

const details = {
  medico_id: MEDICO_ID,
  doctor_name: 'Dra. Ana Ribeiro',
  specialty: 'Clínica Geral',
  appointment_date: '2026-11-23',
  appointment_time: '22:30',
  horario_inicio: '2026-11-24T01:30:00Z',
  horario_fim: '2026-11-24T02:00:00Z',
  price_in_cents: 13000,
};

describe('bookingDetailsSchema', () => {
  it('accepts details whose date is the São Paulo day even when UTC is already tomorrow', () => {
    expect(validate(bookingDetailsSchema, details)).toEqual({ ok: true, value: details });
  });

  it('normalises offsets in instants to UTC', () => {
    const result = validate(bookingDetailsSchema, {
      ...details,
      horario_inicio: '2026-11-23T22:30:00-03:00',
      horario_fim: '2026-11-23T23:00:00-03:00',
    });
    expect(result.ok && [result.value.horario_inicio, result.value.horario_fim]).toEqual([
      '2026-11-24T01:30:00Z',
      '2026-11-24T02:00:00Z',
    ]);
  });

  it.each([
    [
      'end is 60 min after start',
      { horario_fim: '2026-11-24T02:30:00Z' },
      'horario_fim',
      'A consulta deve durar 30 minutos.',
    ],
    [
      'date given in UTC instead of São Paulo',
      { appointment_date: '2026-11-24' },
      'appointment_time',
      'Data e horário não correspondem ao início da consulta.',
    ],
    [
      'time with seconds',
      { appointment_time: '22:30:00' },
      'appointment_time',
      'Horário inválido.',
    ],
    [
      'start without offset',
      { horario_inicio: '2026-11-23T22:30:00' },
      'horario_inicio',
      'Data e hora inválidas.',
    ],
    ['doctor id not a uuid', { medico_id: 'fallback-ana' }, 'medico_id', 'Identificador inválido.'],
    ['negative price', { price_in_cents: -1 }, 'price_in_cents', 'Preço inválido.'],
    ['fractional cents', { price_in_cents: 130.5 }, 'price_in_cents', 'Preço inválido.'],
    ['impossible date', { appointment_date: '2026-02-30' }, 'appointment_date', 'Data inválida.'],
  ])('rejects %s', (_name, override, field, message) => {
    const result = validate(bookingDetailsSchema, { ...details, ...override });
    expect(result.ok ? {} : result.errors).toEqual({ [field]: message });
  });
});

describe('checkoutStateSchema', () => {
  it.each([
    [
      'details plus appointment id',
      { appointmentDetails: { ...details, appointmentId: APPOINTMENT_ID } },
      true,
    ],
    ['no state at all', null, false],
    ['details without an id', { appointmentDetails: details }, false],
    [
      'inconsistent details',
      {
        appointmentDetails: {
          ...details,
          appointmentId: APPOINTMENT_ID,
          appointment_time: '10:00',
        },
      },
      false,
    ],
  ])('%s', (_name, state, ok) => {
    expect(validate(checkoutStateSchema, state).ok).toBe(ok);
  });
});

describe('createBookingDetails', () => {
  const [slot] = expandBlocks(
    [{ dia_semana: 1, hora_inicio: '22:30:00', hora_fim: '23:00:00', intervalo_em_minutos: 30 }],
    Temporal.PlainDate.from('2026-11-23'),
    1,
  );

  it.each([
    ['uses the public name', { public_name: 'Dra. Ana Ribeiro', price_in_cents: 13000 }, details],
    [
      'falls back to the name',
      { public_name: ' ', price_in_cents: 13000 },
      { ...details, doctor_name: 'Ana Ribeiro' },
    ],
    [
      'missing price is 0',
      { public_name: 'Dra. Ana Ribeiro', price_in_cents: null },
      { ...details, price_in_cents: 0 },
    ],
  ])('%s, and the result passes the schema', (_name, doctor, expected) => {
    const built = createBookingDetails(
      { id: MEDICO_ID, name: 'Ana Ribeiro', specialty: 'Clínica Geral', ...doctor },
      slot!,
    );
    expect(built).toEqual(expected);
    expect(validate(bookingDetailsSchema, built).ok).toBe(true);
  });
});
