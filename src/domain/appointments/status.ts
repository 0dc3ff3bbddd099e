import {
  APPOINTMENT_STATUSES,
  BOOKED_STATUSES,
  CLOSED_STATUSES,
  PAYMENT_STATUSES,
  UPCOMING_STATUSES,
} from '../rules/booking.ts';

export {
  APPOINTMENT_STATUSES,
  BOOKED_STATUSES,
  CLOSED_STATUSES,
  PAYMENT_STATUSES,
  UPCOMING_STATUSES,
};
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The state every list, badge and action rule reads. Unknown payment values count as unpaid. */
export type AppointmentState = {
  status: AppointmentStatus;
  pagamento_status: string | null;
};

export function isAppointmentStatus(value: unknown): value is AppointmentStatus {
  return (APPOINTMENT_STATUSES as readonly unknown[]).includes(value);
}

export function isBookedStatus(status: string): boolean {
  return (BOOKED_STATUSES as readonly string[]).includes(status);
}

export function isUpcomingStatus(status: string): boolean {
  return (UPCOMING_STATUSES as readonly string[]).includes(status);
}

export function isClosedStatus(status: string): boolean {
  return (CLOSED_STATUSES as readonly string[]).includes(status);
}

export function isPaid(state: Pick<AppointmentState, 'pagamento_status'>): boolean {
  return state.pagamento_status === 'pago';
}

/**
 * The rule-relevant state of a row as stored (status is a plain string there); null for a
 * status this version does not know, which no list, badge or action rule should guess about.
 */
export function appointmentStateOf(row: {
  status: string | null | undefined;
  pagamento_status: string | null | undefined;
}): AppointmentState | null {
  const status = row.status;
  if (!status || !isAppointmentStatus(status)) return null;
  return { status, pagamento_status: row.pagamento_status ?? null };
}
