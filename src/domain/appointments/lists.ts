import { isUpcomingStatus } from './status.ts';
import type { AppointmentState } from './status.ts';

/** Doctor: confirmado/reagendado/pendente whose payment is not cancelled; the rest is history. */
export function isDoctorUpcoming(appointment: AppointmentState): boolean {
  return isUpcomingStatus(appointment.status) && appointment.pagamento_status !== 'cancelado';
}

/** Patient: confirmado/reagendado/pendente; the rest is history. */
export function isPatientUpcoming(appointment: AppointmentState): boolean {
  return isUpcomingStatus(appointment.status);
}
