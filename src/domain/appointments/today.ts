import type { Temporal } from 'temporal-polyfill';
import { SAO_PAULO, parseInstant, saoPauloToday, toSaoPaulo } from '../time/zone.ts';
import { SLOT_DURATION_MINUTES } from '../availability/constants.ts';
import { isDoctorUpcoming } from './lists.ts';
import { appointmentStateOf, type AppointmentState } from './status.ts';

type Timed = {
  status: string | null;
  pagamento_status: string | null;
  horario_inicio: string;
  /** Missing on old rows: a consultation lasts one slot. */
  horario_fim: string | null;
};

export type TodayAgenda<T> = {
  /** The doctor's day in São Paulo, earliest first. */
  items: T[];
  /** Index in `items` of the appointment to attend next (not over, not yet attended); -1: none. */
  nextIndex: number;
};

/**
 * The São Paulo day containing `now` as the instants it starts and ends at, ISO `…Z` like the
 * replica's `horario_inicio`: the range of the replica's query for the day's appointments.
 */
export function todayRange(now: Temporal.Instant): { from: string; to: string } {
  const today = saoPauloToday(now);
  return {
    from: today.toZonedDateTime(SAO_PAULO).toInstant().toString(),
    to: today.add({ days: 1 }).toZonedDateTime(SAO_PAULO).toInstant().toString(),
  };
}

/** Still on the doctor's agenda: upcoming, or already attended today. Cancelled ones are not. */
function isOnAgenda(a: AppointmentState): boolean {
  return isDoctorUpcoming(a) || a.status === 'atendido';
}

/**
 * The doctor's appointments of the São Paulo day containing `now`, in time order, and which
 * one comes next: the first whose end is still ahead and that has not been attended.
 */
export function todayAgenda<T extends Timed>(
  appointments: readonly T[],
  now: Temporal.Instant,
): TodayAgenda<T> {
  const today = saoPauloToday(now);
  const dated: { item: T; start: Temporal.Instant; end: Temporal.Instant }[] = [];
  for (const item of appointments) {
    const state = appointmentStateOf(item);
    if (!state || !isOnAgenda(state)) continue;
    const start = parseInstant(item.horario_inicio);
    if (!start || !toSaoPaulo(start).toPlainDate().equals(today)) continue;
    const end =
      (item.horario_fim ? parseInstant(item.horario_fim) : null) ??
      start.add({ minutes: SLOT_DURATION_MINUTES });
    dated.push({ item, start, end });
  }
  dated.sort((a, b) => a.start.epochMilliseconds - b.start.epochMilliseconds);
  const nextIndex = dated.findIndex(
    (d) => d.item.status !== 'atendido' && d.end.epochMilliseconds > now.epochMilliseconds,
  );
  return { items: dated.map((d) => d.item), nextIndex };
}
