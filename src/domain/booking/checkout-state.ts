import * as v from 'valibot';
import { doctorDisplayName } from '@/domain/doctors/fixed-doctors.ts';
import { formatWallTime } from '@/domain/time/wall-time.ts';
import { parseInstant, toSaoPaulo } from '@/domain/time/zone.ts';
import {
  checkoutStateSchema,
  successStateSchema,
  type BookingDetails,
  type CheckoutState,
} from '@/domain/schemas/booking.ts';

/** Navigation state of /checkout: the booking details plus the (optimistic) appointment id. */
export function toCheckoutState(details: BookingDetails, appointmentId: string): CheckoutState {
  return { appointmentDetails: { ...details, appointmentId } };
}

/** The checkout's navigation state, or null when absent or tampered with. */
export function readCheckoutState(state: unknown): CheckoutState | null {
  const parsed = v.safeParse(checkoutStateSchema, state);
  return parsed.success ? parsed.output : null;
}

/**
 * State for 'Completar Cadastro' (/paciente/dashboard/dados): after saving, the dados tab
 * returns with `navigate('/checkout', { state: { appointmentDetails } })`.
 */
export type CompleteProfileState = { from: 'checkout' } & CheckoutState;

export function toCompleteProfileState(state: CheckoutState): CompleteProfileState {
  return { from: 'checkout', appointmentDetails: state.appointmentDetails };
}

export type SuccessState = v.InferOutput<typeof successStateSchema>;

export function readSuccessState(state: unknown): SuccessState | null {
  const parsed = v.safeParse(successStateSchema, state);
  return parsed.success ? parsed.output : null;
}

/** What 'Continuar agendamento' needs of an appointment to reopen its checkout. */
export type ResumableAppointment = {
  id: string;
  medico_id: string | null;
  horario_inicio: string;
  horario_fim: string | null;
  price_in_cents: number | null;
  medico: { name: string | null; public_name: string | null; specialty: string | null } | null;
};

/**
 * The checkout of a booking the patient left before generating its guide (a checkout hold),
 * or null when the replica lacks what the page shows (it then cannot be resumed from here).
 */
export function resumeCheckoutState(a: ResumableAppointment): CheckoutState | null {
  const start = parseInstant(a.horario_inicio);
  const end = a.horario_fim ? parseInstant(a.horario_fim) : null;
  if (!start || !end || !a.medico || !a.medico_id) return null;
  const local = toSaoPaulo(start);
  return readCheckoutState({
    appointmentDetails: {
      medico_id: a.medico_id,
      doctor_name: doctorDisplayName({
        name: a.medico.name ?? '',
        public_name: a.medico.public_name,
      }),
      specialty: a.medico.specialty ?? '',
      appointment_date: local.toPlainDate().toString(),
      appointment_time: formatWallTime(local.toPlainTime()),
      horario_inicio: start.toString(),
      horario_fim: end.toString(),
      price_in_cents: a.price_in_cents ?? 0,
      appointmentId: a.id,
    },
  });
}
