import { Temporal } from 'temporal-polyfill';
import { isBookedStatus } from '../appointments/status.ts';
import { MONTHS_PT } from '../time/display.ts';
import { compareIsoText } from '../time/iso-order.ts';
import { parseInstant, toSaoPaulo } from '../time/zone.ts';

/** An appointment as the finance section reads it (a doctor's replica row, joined). */
export type FinanceAppointment = {
  id: string;
  horario_inicio: string;
  price_in_cents: number | null;
  status: string | null;
  pagamento_status: string | null;
  pagamento_confirmado_em: string | null;
  protocolo: string | null;
  patientName: string | null;
};

/** A São Paulo calendar month, 'yyyy-MM'. */
export type MonthKey = string;

export type MonthTotals = {
  month: MonthKey;
  /** Confirmed payments whose confirmation fell in the month. */
  receivedCents: number;
  receivedCount: number;
  /** Unpaid, still-valid appointments whose consultation falls in the month. */
  pendingCents: number;
  pendingCount: number;
};

export type PaidAppointment = {
  id: string;
  /** The consultation, São Paulo wall clock. */
  consultation: Temporal.ZonedDateTime;
  /** When the payment was confirmed (the consultation when the server has not said yet). */
  paidAt: Temporal.ZonedDateTime;
  amountCents: number;
  protocolo: string | null;
  patientName: string | null;
};

export type FinanceSummary = {
  currentMonth: MonthKey;
  thisMonth: MonthTotals;
  /** Every month with something received or pending, newest first. */
  months: MonthTotals[];
  /** Paid appointments, most recently paid first. */
  paid: PaidAppointment[];
};

function monthOf(zoned: Temporal.ZonedDateTime): MonthKey {
  return zoned.toPlainDate().toPlainYearMonth().toString();
}

function emptyMonth(month: MonthKey): MonthTotals {
  return { month, receivedCents: 0, receivedCount: 0, pendingCents: 0, pendingCount: 0 };
}

function zoned(value: string | null): Temporal.ZonedDateTime | null {
  const instant = value ? parseInstant(value) : null;
  return instant ? toSaoPaulo(instant) : null;
}

/**
 * Received and pending money of a doctor's appointments, per São Paulo month. Received counts a
 * paid appointment in the month its payment was confirmed (a cancelled one that was paid
 * stays received: the money came in); pending counts an unpaid appointment that still holds its
 * slot, in the month of the consultation. Cancelled or expired unpaid appointments count nowhere.
 */
export function summarizeFinance(
  appointments: readonly FinanceAppointment[],
  now: Temporal.Instant,
): FinanceSummary {
  const currentMonth = monthOf(toSaoPaulo(now));
  const months = new Map<MonthKey, MonthTotals>();
  const totals = (month: MonthKey) => {
    let entry = months.get(month);
    if (!entry) months.set(month, (entry = emptyMonth(month)));
    return entry;
  };
  const paid: PaidAppointment[] = [];
  for (const appointment of appointments) {
    const consultation = zoned(appointment.horario_inicio);
    if (!consultation) continue;
    const amount = Math.max(0, appointment.price_in_cents ?? 0);
    if (appointment.pagamento_status === 'pago') {
      const paidAt = zoned(appointment.pagamento_confirmado_em) ?? consultation;
      const entry = totals(monthOf(paidAt));
      entry.receivedCents += amount;
      entry.receivedCount += 1;
      paid.push({
        id: appointment.id,
        consultation,
        paidAt,
        amountCents: amount,
        protocolo: appointment.protocolo,
        patientName: appointment.patientName,
      });
    } else if (appointment.status && isBookedStatus(appointment.status)) {
      const entry = totals(monthOf(consultation));
      entry.pendingCents += amount;
      entry.pendingCount += 1;
    }
  }
  paid.sort((a, b) => Temporal.ZonedDateTime.compare(b.paidAt, a.paidAt));
  const sorted = [...months.values()].sort((a, b) => compareIsoText(b.month, a.month));
  return {
    currentMonth,
    thisMonth: months.get(currentMonth) ?? emptyMonth(currentMonth),
    months: sorted,
    paid,
  };
}

/** '2026-11' → 'novembro de 2026'. */
export function monthLabel(month: MonthKey): string {
  const { year, month: m } = Temporal.PlainYearMonth.from(month);
  return `${MONTHS_PT[m - 1] ?? ''} de ${year}`;
}
