import { Temporal } from 'temporal-polyfill';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const BR_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

function plainDate(year: string, month: string, day: string): Temporal.PlainDate | null {
  try {
    return Temporal.PlainDate.from(
      { year: Number(year), month: Number(month), day: Number(day) },
      { overflow: 'reject' },
    );
  } catch {
    return null;
  }
}

/** 'yyyy-MM-dd' (the storage and wire form of a calendar day) → PlainDate; impossible days → null. */
export function parseIsoDate(value: string): Temporal.PlainDate | null {
  const match = ISO_DATE.exec(value.trim());
  return match ? plainDate(match[1] ?? '', match[2] ?? '', match[3] ?? '') : null;
}

export function formatIsoDate(date: Temporal.PlainDate): string {
  return date.toString();
}

/** 'dd/MM/yyyy' as typed in masked inputs → PlainDate; impossible days (31/02) → null. */
export function parseBrDate(value: string): Temporal.PlainDate | null {
  const match = BR_DATE.exec(value.trim());
  return match ? plainDate(match[3] ?? '', match[2] ?? '', match[1] ?? '') : null;
}

export function formatBrDate(date: Temporal.PlainDate): string {
  return `${pad2(date.day)}/${pad2(date.month)}/${String(date.year).padStart(4, '0')}`;
}

/** 'dd/MM', the date line of an availability grid column. */
export function formatDayMonth(date: Temporal.PlainDate): string {
  return `${pad2(date.day)}/${pad2(date.month)}`;
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}
