import { isClosedStatus, isPaid } from './status.ts';
import type { AppointmentState } from './status.ts';

export type DoctorActions = {
  canMarkPaid: boolean;
  canCheckIn: boolean;
  canCancel: boolean;
  canSaveLink: boolean;
};

/**
 * docs/product-rules.md §4. A cancelled payment counts as cancelled for marking paid: confirming money the
 * appointment no longer expects would resurrect it behind the patient's back.
 */
export function doctorActions(appointment: AppointmentState): DoctorActions {
  const isClosed = isClosedStatus(appointment.status);
  const isAttended = appointment.status === 'atendido';
  const paid = isPaid(appointment);
  return {
    canMarkPaid: !paid && !isClosed && appointment.pagamento_status !== 'cancelado',
    canCheckIn: paid && !isClosed && !isAttended,
    canCancel: !isClosed && !isAttended,
    canSaveLink: !isClosed,
  };
}
