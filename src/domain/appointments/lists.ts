import { isUpcomingStatus, UPCOMING_STATUSES } from './status.ts';
import type { AppointmentState } from './status.ts';

/**
 * The doctor's upcoming list as data: one of these statuses, and a payment other than
 * `paymentNot` (no payment state yet counts too). `isDoctorUpcoming` reads it, and the
 * dashboard's first read asks the server the same question (doctor-dashboard/first-consultas.ts).
 */
export const DOCTOR_UPCOMING = { statuses: UPCOMING_STATUSES, paymentNot: 'cancelado' } as const;

/** Doctor: confirmado/reagendado/pendente whose payment is not cancelled; the rest is history. */
export function isDoctorUpcoming(appointment: AppointmentState): boolean {
  return (
    isUpcomingStatus(appointment.status) &&
    appointment.pagamento_status !== DOCTOR_UPCOMING.paymentNot
  );
}

/** Patient: confirmado/reagendado/pendente; the rest is history. */
export function isPatientUpcoming(appointment: AppointmentState): boolean {
  return isUpcomingStatus(appointment.status);
}
