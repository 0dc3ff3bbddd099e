import { Temporal } from 'temporal-polyfill';
import { wallTimeMinutes } from '../time/wall-time.ts';

/** A weekly availability block as stored in agenda_medico (wall clock in São Paulo). */
export type WeeklyBlock = {
  dia_semana: number;
  hora_inicio: string;
  hora_fim: string;
  intervalo_em_minutos: number;
};

/** A block in minutes of the day; null when the row cannot produce slots (bad times or step). */
export type BlockRange = {
  diaSemana: number;
  startMinute: number;
  endMinute: number;
  stepMinutes: number;
};

export function blockRange(block: WeeklyBlock): BlockRange | null {
  const start = wallTimeMinutes(block.hora_inicio);
  const end = wallTimeMinutes(block.hora_fim);
  const step = block.intervalo_em_minutos;
  if (start === null || end === null || !Number.isInteger(step) || step <= 0) return null;
  if (!Number.isInteger(block.dia_semana) || block.dia_semana < 0 || block.dia_semana > 6) {
    return null;
  }
  const range = {
    diaSemana: block.dia_semana,
    startMinute: start,
    endMinute: end,
    stepMinutes: step,
  };
  return range.endMinute > range.startMinute ? range : null;
}

/**
 * Slot starts of one block, in minutes of the day: from hora_inicio, every intervalo_em_minutos,
 * while the whole consultation fits (start + duration ≤ hora_fim) — the doctor said they are
 * available until hora_fim, not that they start a consultation then.
 */
export function slotStartMinutes(range: BlockRange, durationMinutes: number): number[] {
  const starts: number[] = [];
  for (let m = range.startMinute; m + durationMinutes <= range.endMinute; m += range.stepMinutes) {
    starts.push(m);
  }
  return starts;
}

export function wallTimeFromMinutes(minutes: number): Temporal.PlainTime {
  return Temporal.PlainTime.from({ hour: Math.floor(minutes / 60), minute: minutes % 60 });
}
