import { Temporal } from 'temporal-polyfill';
import { SAO_PAULO, parseInstant, toSaoPaulo } from '../time/zone.ts';

/**
 * When the consultation room of an appointment is open (CONTRACT.md "Consultation room"): from
 * ROOM_OPENS_MINUTES_BEFORE before its start to the end of its São Paulo day, and never before
 * ROOM_STAYS_OPEN_HOURS_AFTER_END after its end. The server applies the same numbers
 * (`app_private.sala_abre_em` / `sala_fecha_em`); tests/db/consultation-room.test.ts fails when
 * they disagree.
 */
export const ROOM_OPENS_MINUTES_BEFORE = 30;
export const ROOM_STAYS_OPEN_HOURS_AFTER_END = 2;

/** The server's words for a room not open yet (registrar_evento_sala, `room_not_open`). */
export const ROOM_NOT_OPEN_TEXT = `A sala da consulta abre ${ROOM_OPENS_MINUTES_BEFORE} minutos antes do horário marcado.`;

export type RoomWindow = { opensAt: Temporal.Instant; closesAt: Temporal.Instant };

/** The room's window, or null when the appointment's instants cannot be read. */
export function roomWindow(a: {
  horario_inicio: string;
  horario_fim: string | null;
}): RoomWindow | null {
  const start = parseInstant(a.horario_inicio);
  const end = a.horario_fim ? parseInstant(a.horario_fim) : null;
  if (!start || !end) return null;
  const endOfDay = toSaoPaulo(start)
    .toPlainDate()
    .add({ days: 1 })
    .toZonedDateTime(SAO_PAULO)
    .toInstant();
  const lateEnd = end.add({ hours: ROOM_STAYS_OPEN_HOURS_AFTER_END });
  return {
    opensAt: start.subtract({ minutes: ROOM_OPENS_MINUTES_BEFORE }),
    closesAt: Temporal.Instant.compare(endOfDay, lateEnd) >= 0 ? endOfDay : lateEnd,
  };
}

export type RoomOpening = 'open' | 'not_open' | 'closed';

/** Whether the room's window holds `now` (the cancelled/expired check is the appointment's). */
export function roomOpening(window: RoomWindow, now: Temporal.Instant): RoomOpening {
  if (Temporal.Instant.compare(now, window.opensAt) < 0) return 'not_open';
  if (Temporal.Instant.compare(now, window.closesAt) >= 0) return 'closed';
  return 'open';
}

/**
 * What the room records on the appointment (`registrar_evento_sala`'s `p_evento`): the patient
 * entered the waiting room (the patient only), the call started (the doctor only), the call
 * ended, the call fell back to audio (either of the two).
 */
export const ROOM_EVENTS = [
  'paciente_entrou',
  'chamada_iniciada',
  'chamada_encerrada',
  'so_audio',
] as const;
export type RoomEvent = (typeof ROOM_EVENTS)[number];

/** Who may record each event; the server refuses anyone else. */
export const ROOM_EVENT_ROLES: Record<RoomEvent, readonly ('paciente' | 'medico')[]> = {
  paciente_entrou: ['paciente'],
  chamada_iniciada: ['medico'],
  chamada_encerrada: ['paciente', 'medico'],
  so_audio: ['paciente', 'medico'],
};

/** The doctor's choice in perfil (`medicos.sala_consulta`): the built-in room or their own link. */
export const ROOM_CHOICES = ['integrada', 'link_externo'] as const;
export type RoomChoice = (typeof ROOM_CHOICES)[number];
export const DEFAULT_ROOM_CHOICE: RoomChoice = 'integrada';
