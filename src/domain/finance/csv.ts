import { formatAmount } from '../money/money.ts';
import { formatBrDate } from '../time/local-date.ts';
import { formatWallTime } from '../time/wall-time.ts';
import type { PaidAppointment } from './finance.ts';

/** Excel and LibreOffice in pt-BR read ';' as the separator and need a BOM to see UTF-8. */
export const CSV_SEPARATOR = ';';
const BOM = '\uFEFF';

export const PAID_CSV_HEADER = [
  'Data da consulta',
  'Horário',
  'Paciente',
  'Protocolo',
  'Valor (R$)',
  'Pago em',
] as const;

/**
 * One CSV cell: quoted when it holds the separator, a quote or a line break. A text starting
 * with = + - @ would run as a formula in a spreadsheet (a patient's name is outside input), so
 * it gets a leading apostrophe.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The paid appointments as a pt-BR spreadsheet file: BOM, ';', CRLF, '1.234,56'. */
export function paidAppointmentsCsv(paid: readonly PaidAppointment[]): string {
  const lines = [PAID_CSV_HEADER.join(CSV_SEPARATOR)];
  for (const row of paid) {
    lines.push(
      [
        formatBrDate(row.consultation.toPlainDate()),
        formatWallTime(row.consultation.toPlainTime()),
        csvCell(row.patientName ?? ''),
        csvCell(row.protocolo ?? ''),
        formatAmount(row.amountCents),
        formatBrDate(row.paidAt.toPlainDate()),
      ].join(CSV_SEPARATOR),
    );
  }
  return `${BOM}${lines.join('\r\n')}\r\n`;
}

/** 'financeiro-2026-11-25.csv'. */
export function csvFileName(today: string): string {
  return `financeiro-${today}.csv`;
}
