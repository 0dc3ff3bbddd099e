import { describe, expect, it } from 'vitest';
import {
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
