import { describe, expect, it } from 'vitest';
import {
  appointmentStateOf,
  isAppointmentStatus,
  isBookedStatus,
  isClosedStatus,
  isPaid,
  isUpcomingStatus,
} from './status.ts';

describe('status predicates', () => {
  it.each([
    // status, booked, upcoming, closed
    ['confirmado', true, true, false],
    ['reagendado', true, true, false],
    ['pendente', true, true, false],
    ['atendido', true, false, false],
    ['cancelado', false, false, true],
    ['expirado', false, false, true],
    ['desconhecido', false, false, false],
  ])('%s: booked=%s upcoming=%s closed=%s', (status, booked, upcoming, closed) => {
    expect(isBookedStatus(status)).toBe(booked);
    expect(isUpcomingStatus(status)).toBe(upcoming);
    expect(isClosedStatus(status)).toBe(closed);
  });

  it.each([
    ['known status', 'atendido', true],
    ['unknown status', 'remarcado', false],
    ['not a string', 3, false],
  ])('isAppointmentStatus: %s', (_name, value, expected) => {
    expect(isAppointmentStatus(value)).toBe(expected);
  });

  it.each([
    ['pago', true],
    ['pendente', false],
    ['cancelado', false],
    ['an unknown value counts as unpaid', false],
    [null, false],
  ] as const)('isPaid(%s) = %s', (pagamento_status, expected) => {
    expect(isPaid({ pagamento_status })).toBe(expected);
  });
});

describe('appointmentStateOf', () => {
  it('keeps a known status with its payment, and refuses an unknown or missing one', () => {
    expect(appointmentStateOf({ status: 'confirmado', pagamento_status: 'pago' })).toEqual({
      status: 'confirmado',
      pagamento_status: 'pago',
    });
    expect(appointmentStateOf({ status: 'atendido', pagamento_status: undefined })).toEqual({
      status: 'atendido',
      pagamento_status: null,
    });
    expect(appointmentStateOf({ status: 'arquivado', pagamento_status: 'pago' })).toBeNull();
    expect(appointmentStateOf({ status: null, pagamento_status: 'pago' })).toBeNull();
  });
});
