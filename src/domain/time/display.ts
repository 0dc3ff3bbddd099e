import type { Temporal } from 'temporal-polyfill';
import { formatBrDate, parseIsoDate } from './local-date.ts';
import { parseInstant, toSaoPaulo } from './zone.ts';
import { formatWallTime } from './wall-time.ts';

export const TODAY_LABEL = 'Hoje';

/**
 * pt-BR abbreviated weekdays as Intl (CLDR) writes them, indexed by dia_semana (0 = Sunday).
 * Spelled out so every browser shows the same grid whatever its ICU data.
 */
export const WEEKDAY_SHORT_PT = ['dom.', 'seg.', 'ter.', 'qua.', 'qui.', 'sex.', 'sáb.'] as const;

export const WEEKDAY_LONG_PT = [
  'domingo',
  'segunda-feira',
  'terça-feira',
  'quarta-feira',
  'quinta-feira',
  'sexta-feira',
  'sábado',
] as const;

/** Month names as pt-BR writes them, lower case ('novembro'). */
export const MONTHS_PT = [
  'janeiro',
  'fevereiro',
  'março',
  'abril',
  'maio',
  'junho',
  'julho',
  'agosto',
  'setembro',
  'outubro',
  'novembro',
  'dezembro',
] as const;

/** Temporal numbers weekdays 1 = Monday .. 7 = Sunday; the schema's dia_semana is 0 = Sunday .. 6. */
export function diaSemana(date: Temporal.PlainDate): number {
  return date.dayOfWeek % 7;
}

/** 'Hoje' for today, otherwise the abbreviated weekday ('seg.'). */
export function dayLabel(date: Temporal.PlainDate, today: Temporal.PlainDate): string {
  return date.equals(today) ? TODAY_LABEL : (WEEKDAY_SHORT_PT[diaSemana(date)] ?? '');
}

/** 'segunda-feira, 23 de novembro de 2026' — the day of an instant in Brasília time. */
export function formatLongDate(instant: Temporal.Instant): string {
  const date = toSaoPaulo(instant).toPlainDate();
  const weekday = WEEKDAY_LONG_PT[diaSemana(date)] ?? '';
  const month = MONTHS_PT[date.month - 1] ?? '';
  return `${weekday}, ${date.day} de ${month} de ${date.year}`;
}

/** 'HH:mm' of an instant in Brasília time. */
export function formatShortTime(instant: Temporal.Instant): string {
  return formatWallTime(toSaoPaulo(instant).toPlainTime());
}

/** 'dd/MM/yyyy' of an instant in Brasília time (e.g. a guide's issue date). */
export function formatInstantDate(instant: Temporal.Instant): string {
  return formatBrDate(toSaoPaulo(instant).toPlainDate());
}

/**
 * Birth and service dates are calendar days, shown as stored (docs/product-rules.md §9: "in UTC"). A `date`
 * ('1990-05-10') is shown as is; an instant is read in UTC. Converting such a day to Brasília
 * would show the previous day. Unreadable values yield null so the caller shows its fallback.
 */
export function formatCalendarDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const date = parseIsoDate(value) ?? parseInstant(value)?.toZonedDateTimeISO('UTC').toPlainDate();
  return date ? formatBrDate(date) : null;
}
