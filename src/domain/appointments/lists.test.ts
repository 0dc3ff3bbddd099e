import { describe, expect, it } from 'vitest';
import { isDoctorUpcoming, isPatientUpcoming } from './lists.ts';
import type { AppointmentState, AppointmentStatus } from './status.ts';

function appt(status: AppointmentStatus, pagamento_status: string | null = 'pendente') {
  return { status, pagamento_status } satisfies AppointmentState;
}

describe('upcoming vs history', () => {
  it.each([
    // name, appointment, doctor upcoming, patient upcoming
    ['confirmado unpaid', appt('confirmado'), true, true],
    ['confirmado paid', appt('confirmado', 'pago'), true, true],
    ['reagendado', appt('reagendado'), true, true],
    ['pendente', appt('pendente'), true, true],
    ['confirmado with payment cancelled', appt('confirmado', 'cancelado'), false, true],
    ['atendido', appt('atendido', 'pago'), false, false],
    ['cancelado', appt('cancelado'), false, false],
    ['expirado', appt('expirado'), false, false],
  ])('%s', (_name, appointment, doctor, patient) => {
    expect(isDoctorUpcoming(appointment)).toBe(doctor);
    expect(isPatientUpcoming(appointment)).toBe(patient);
  });
});
