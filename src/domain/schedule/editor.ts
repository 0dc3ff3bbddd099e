import { ERROR_MESSAGES } from '../errors/messages.ts';
import { INTERVAL_OPTIONS } from '../rules/booking.ts';
import { toInputTime, wallTimeMinutes } from '../time/wall-time.ts';

/** Step options offered by the editor and accepted by agenda_medico. */
export { INTERVAL_OPTIONS };
export type IntervalOption = (typeof INTERVAL_OPTIONS)[number];

/** The editor lists Monday to Saturday, then Sunday (docs/product-rules.md §9); dia_semana keeps 0 = Sunday. */
export const EDITOR_WEEKDAYS = [
  { diaSemana: 1, name: 'Segunda-feira' },
  { diaSemana: 2, name: 'Terça-feira' },
  { diaSemana: 3, name: 'Quarta-feira' },
  { diaSemana: 4, name: 'Quinta-feira' },
  { diaSemana: 5, name: 'Sexta-feira' },
  { diaSemana: 6, name: 'Sábado' },
  { diaSemana: 0, name: 'Domingo' },
] as const;

export const NEW_BLOCK_DEFAULTS = {
  hora_inicio: '08:00',
  hora_fim: '12:00',
  intervalo_em_minutos: 15,
} as const;

export const END_NOT_AFTER_START = 'Fim > Início';
export const OVERLAPPING = 'Sobreposto';
export const TIME_REQUIRED = 'Obrigatório';

export const SCHEDULE_ERROR_TOAST = {
  title: 'Erro de validação',
  description: ERROR_MESSAGES.scheduleOverlap,
} as const;

/** A block while edited: times 'HH:mm' ('' while empty); key is the row id or a new local id. */
export type EditorBlock = {
  key: string;
  dia_semana: number;
  hora_inicio: string;
  hora_fim: string;
  intervalo_em_minutos: number;
};

export type BlockFieldErrors = { hora_inicio?: string; hora_fim?: string };

export type ScheduleValidation =
  | { ok: true }
  | {
      ok: false;
      errors: Record<string, BlockFieldErrors>;
      toast: typeof SCHEDULE_ERROR_TOAST;
    };

export function newEditorBlock(diaSemana: number, key: string): EditorBlock {
  return { key, dia_semana: diaSemana, ...NEW_BLOCK_DEFAULTS };
}

/** Stored rows carry 'HH:mm:ss'; the editor's time inputs want 'HH:mm'. */
export function toEditorBlock(row: {
  id: string;
  dia_semana: number;
  hora_inicio: string;
  hora_fim: string;
  intervalo_em_minutos: number;
}): EditorBlock {
  return {
    key: row.id,
    dia_semana: row.dia_semana,
    hora_inicio: toInputTime(row.hora_inicio) ?? '',
    hora_fim: toInputTime(row.hora_fim) ?? '',
    intervalo_em_minutos: row.intervalo_em_minutos,
  };
}

function startMinute(block: EditorBlock): number | null {
  return wallTimeMinutes(block.hora_inicio);
}

function endMinute(block: EditorBlock): number | null {
  return wallTimeMinutes(block.hora_fim);
}

/** One day's blocks, complete ones sorted by start, blocks still missing a time last. */
export function dayBlocks(blocks: readonly EditorBlock[], diaSemana: number): EditorBlock[] {
  const ofDay = blocks.filter((block) => block.dia_semana === diaSemana);
  const isComplete = (block: EditorBlock) =>
    startMinute(block) !== null && endMinute(block) !== null;
  const complete = ofDay
    .filter(isComplete)
    .sort((a, b) => (startMinute(a) ?? 0) - (startMinute(b) ?? 0));
  return [...complete, ...ofDay.filter((block) => !isComplete(block))];
}

/**
 * docs/product-rules.md §5: end after start ('Fim > Início' on the end), and no overlap with an earlier block of
 * the day ('Sobreposto' on the later start). Overlap is checked against the latest end so far, so
 * a block swallowed by a long one is caught even when its direct predecessor ends earlier.
 * Touching blocks (10:00–12:00 then 12:00–14:00) are fine.
 */
export function validateSchedule(blocks: readonly EditorBlock[]): ScheduleValidation {
  const errors: Record<string, BlockFieldErrors> = {};
  const flag = (key: string, field: keyof BlockFieldErrors, message: string) => {
    errors[key] = { ...errors[key], [field]: message };
  };
  for (const { diaSemana } of EDITOR_WEEKDAYS) {
    let latestEnd: number | null = null;
    for (const block of dayBlocks(blocks, diaSemana)) {
      const start = startMinute(block);
      const end = endMinute(block);
      if (start === null) flag(block.key, 'hora_inicio', TIME_REQUIRED);
      if (end === null) flag(block.key, 'hora_fim', TIME_REQUIRED);
      if (start === null || end === null) continue;
      if (end <= start) flag(block.key, 'hora_fim', END_NOT_AFTER_START);
      if (latestEnd !== null && latestEnd > start) flag(block.key, 'hora_inicio', OVERLAPPING);
      latestEnd = Math.max(latestEnd ?? end, end);
    }
  }
  return Object.keys(errors).length === 0
    ? { ok: true }
    : { ok: false, errors, toast: SCHEDULE_ERROR_TOAST };
}
