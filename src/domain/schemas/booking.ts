import * as v from 'valibot';
import { SLOT_DURATION_MINUTES } from '../availability/constants.ts';
import { doctorDisplayName } from '../doctors/fixed-doctors.ts';
import type { Slot } from '../availability/slots.ts';
import { formatWallTime } from '../time/wall-time.ts';
import { parseInstant, toSaoPaulo } from '../time/zone.ts';
import {
  MESSAGES,
  inputTimeField,
  instantField,
  isoDateField,
  requiredText,
  uuidField,
} from './fields.ts';

export const BOOKING_MESSAGES = {
  wrongDuration: 'A consulta deve durar 30 minutos.',
  startMismatch: 'Data e horário não correspondem ao início da consulta.',
  invalidPrice: 'Preço inválido.',
} as const;

function sameWallClock(input: {
  appointment_date: string;
  appointment_time: string;
  horario_inicio: string;
}): boolean {
  const start = parseInstant(input.horario_inicio);
  if (!start) return false;
  const zoned = toSaoPaulo(start);
  return (
    zoned.toPlainDate().toString() === input.appointment_date &&
    formatWallTime(zoned.toPlainTime()) === input.appointment_time
  );
}

function lastsOneSlot(input: { horario_inicio: string; horario_fim: string }): boolean {
  const start = parseInstant(input.horario_inicio);
  const end = parseInstant(input.horario_fim);
  return (
    start !== null && end !== null && start.add({ minutes: SLOT_DURATION_MINUTES }).equals(end)
  );
}

const bookingDetailsEntries = {
  medico_id: uuidField,
  doctor_name: requiredText(MESSAGES.nameRequired),
  specialty: v.pipe(v.string(), v.trim()),
  appointment_date: isoDateField,
  appointment_time: inputTimeField,
  horario_inicio: instantField,
  horario_fim: instantField,
  price_in_cents: v.pipe(
    v.number(BOOKING_MESSAGES.invalidPrice),
    v.integer(BOOKING_MESSAGES.invalidPrice),
    v.minValue(0, BOOKING_MESSAGES.invalidPrice),
  ),
};

/**
 * What the grid hands to checkout (docs/product-rules.md §3 "Booking details"). The price shown comes from here;
 * the price charged is read by the server from the doctor's row.
 */
export const bookingDetailsSchema = v.pipe(
  v.object(bookingDetailsEntries),
  v.forward(
    v.partialCheck(
      [['appointment_date'], ['appointment_time'], ['horario_inicio']],
      sameWallClock,
      BOOKING_MESSAGES.startMismatch,
    ),
    ['appointment_time'],
  ),
  v.forward(
    v.partialCheck(
      [['horario_inicio'], ['horario_fim']],
      lastsOneSlot,
      BOOKING_MESSAGES.wrongDuration,
    ),
    ['horario_fim'],
  ),
);
export type BookingDetails = v.InferOutput<typeof bookingDetailsSchema>;

/** Navigation state of /checkout: the details plus the created appointment's id. */
export const checkoutStateSchema = v.object({
  appointmentDetails: v.pipe(
    v.object({ ...bookingDetailsEntries, appointmentId: uuidField }),
    v.check((details) => sameWallClock(details), BOOKING_MESSAGES.startMismatch),
    v.check((details) => lastsOneSlot(details), BOOKING_MESSAGES.wrongDuration),
  ),
});
export type CheckoutState = v.InferOutput<typeof checkoutStateSchema>;

/** Navigation state of /agendamento-sucesso. */
export const successStateSchema = v.object({ appointmentId: uuidField });

export type BookableDoctor = {
  id: string;
  name: string;
  public_name: string | null;
  specialty: string | null;
  price_in_cents: number | null;
};

export function createBookingDetails(doctor: BookableDoctor, slot: Slot): BookingDetails {
  return {
    medico_id: doctor.id,
    doctor_name: doctorDisplayName(doctor),
    specialty: doctor.specialty ?? '',
    appointment_date: slot.date.toString(),
    appointment_time: slot.time,
    horario_inicio: slot.start.toString(),
    horario_fim: slot.end.toString(),
    price_in_cents: doctor.price_in_cents ?? 0,
  };
}
