import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { csvCell, paidAppointmentsCsv } from './csv.ts';
import { monthLabel, summarizeFinance, type FinanceAppointment } from './finance.ts';

// 25 Nov 2026, 12:00 in São Paulo.
const NOW = Temporal.Instant.from('2026-11-25T15:00:00Z');

function appt(overrides: Partial<FinanceAppointment>): FinanceAppointment {
  return {
    id: overrides.id ?? 'a',
    horario_inicio: '2026-11-20T13:00:00Z',
    price_in_cents: 15000,
    status: 'confirmado',
    pagamento_status: 'pendente',
    pagamento_confirmado_em: null,
    protocolo: 'SJ-1',
    patientName: 'João Silva',
    ...overrides,
  };
}

describe('summarizeFinance', () => {
  it('counts received by the São Paulo month of the payment and pending by the consultation month', () => {
    const summary = summarizeFinance(
      [
        // Paid 30 Nov 23:30 in São Paulo = 1 Dec 02:30 UTC: November's money.
        appt({
          id: 'paid-late-nov',
          pagamento_status: 'pago',
          status: 'atendido',
          pagamento_confirmado_em: '2026-12-01T02:30:00Z',
          price_in_cents: 123456,
        }),
        // Consultation 1 Dec 00:30 São Paulo (03:30 UTC), unpaid: December's pending.
        appt({ id: 'pending-dec', horario_inicio: '2026-12-01T03:30:00Z' }),
        appt({ id: 'pending-nov' }),
        appt({
          id: 'paid-oct',
          pagamento_status: 'pago',
          pagamento_confirmado_em: '2026-10-10T12:00:00Z',
        }),
        // Cancelled before payment, expired: no money either way.
        appt({ id: 'cancelled', status: 'cancelado', pagamento_status: 'cancelado' }),
        appt({ id: 'expired', status: 'expirado' }),
        // Paid, then cancelled: the money still came in.
        appt({
          id: 'paid-cancelled',
          status: 'cancelado',
          pagamento_status: 'pago',
          pagamento_confirmado_em: '2026-11-02T12:00:00Z',
        }),
      ],
      NOW,
    );
    expect(summary.currentMonth).toBe('2026-11');
    expect(summary.thisMonth).toEqual({
      month: '2026-11',
      receivedCents: 123456 + 15000,
      receivedCount: 2,
      pendingCents: 15000,
      pendingCount: 1,
    });
    expect(summary.months.map((m) => m.month)).toEqual(['2026-12', '2026-11', '2026-10']);
    expect(summary.months[0]).toMatchObject({ pendingCents: 15000, receivedCents: 0 });
    expect(summary.paid.map((p) => p.id)).toEqual(['paid-late-nov', 'paid-cancelled', 'paid-oct']);
  });

  it('a payment the server has not dated yet (confirmed offline) counts at the consultation', () => {
    const summary = summarizeFinance([appt({ pagamento_status: 'pago' })], NOW);
    expect(summary.thisMonth.receivedCents).toBe(15000);
    expect(summary.paid[0]?.paidAt.toPlainDate().toString()).toBe('2026-11-20');
  });

  it('an empty month is all zeros', () => {
    expect(summarizeFinance([], NOW)).toEqual({
      currentMonth: '2026-11',
      thisMonth: {
        month: '2026-11',
        receivedCents: 0,
        receivedCount: 0,
        pendingCents: 0,
        pendingCount: 0,
      },
      months: [],
      paid: [],
    });
  });

  it('names months in Portuguese', () => {
    expect(monthLabel('2026-03')).toBe('março de 2026');
  });
});

describe('paid appointments CSV', () => {
  it('is UTF-8 with BOM, ";"-separated, CRLF, pt-BR numbers and São Paulo dates', () => {
    const { paid } = summarizeFinance(
      [
        appt({
          id: 'x',
          horario_inicio: '2026-11-20T13:00:00Z',
          pagamento_status: 'pago',
          pagamento_confirmado_em: '2026-11-21T01:00:00Z',
          price_in_cents: 123456,
          patientName: 'Conceição; "Ção"',
          protocolo: 'SJ-2026-0001',
        }),
      ],
      NOW,
    );
    expect(paidAppointmentsCsv(paid)).toBe(
      '\uFEFFData da consulta;Horário;Paciente;Protocolo;Valor (R$);Pago em\r\n' +
        '20/11/2026;10:00;"Conceição; ""Ção""";SJ-2026-0001;1.234,56;20/11/2026\r\n',
    );
  });

  it('defuses spreadsheet formulas in outside text', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('Maria')).toBe('Maria');
  });
});
