import * as v from 'valibot';
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
