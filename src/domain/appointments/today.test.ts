import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { todayAgenda } from './today.ts';

/** São Paulo wall time on 2026-11-25 as an instant string. */
function at(date: string, time: string): string {
  return Temporal.PlainDateTime.from(`${date}T${time}`)
    .toZonedDateTime('America/Sao_Paulo')
    .toInstant()
    .toString();
}

function appt(id: string, time: string, extra: Partial<Row> = {}, date = '2026-11-25'): Row {
  const start = at(date, time);
  return {
    id,
    status: 'confirmado',
    pagamento_status: 'pendente',
    horario_inicio: start,
    horario_fim: Temporal.Instant.from(start).add({ minutes: 30 }).toString(),
    ...extra,
  };
}

type Row = {
  id: string;
  status: 'confirmado' | 'atendido' | 'cancelado' | 'expirado' | 'pendente' | 'reagendado';
  pagamento_status: string | null;
  horario_inicio: string;
  horario_fim: string | null;
};

describe('todayAgenda', () => {
  const now = Temporal.Instant.from(at('2026-11-25', '10:10'));

  it("keeps the São Paulo day's appointments in time order and drops cancelled ones", () => {
    const list = [
      appt('late', '16:00'),
      appt('cancelled', '11:00', { status: 'cancelado' }),
      appt('payment-cancelled', '11:30', { pagamento_status: 'cancelado' }),
      appt('early', '08:00', { status: 'atendido', pagamento_status: 'pago' }),
      appt('tomorrow', '08:00', {}, '2026-11-26'),
      // 23:30 on the 24th in São Paulo is already the 25th in UTC: not today.
      appt('yesterday-night', '23:30', {}, '2026-11-24'),
      appt('now', '10:00'),
    ];
    const agenda = todayAgenda(list, now);
    expect(agenda.items.map((a) => a.id)).toEqual(['early', 'now', 'late']);
  });

  it('the next one is the first not attended whose end is still ahead', () => {
    const list = [appt('a', '08:00'), appt('b', '10:00'), appt('c', '14:00')];
    expect(todayAgenda(list, now).nextIndex).toBe(1);
    const attended = [appt('b', '10:00', { status: 'atendido' }), appt('c', '14:00')];
    expect(todayAgenda(attended, now).nextIndex).toBe(1);
    expect(todayAgenda([appt('a', '08:00')], now).nextIndex).toBe(-1);
    // Without a stored end, the consultation lasts one 30-minute slot.
    expect(todayAgenda([appt('d', '09:45', { horario_fim: null })], now).nextIndex).toBe(0);
    expect(todayAgenda([appt('e', '09:30', { horario_fim: null })], now).nextIndex).toBe(-1);
  });

  it('uses the São Paulo day even when UTC has already moved on', () => {
    const lateNight = Temporal.Instant.from(at('2026-11-25', '22:00'));
    const agenda = todayAgenda([appt('x', '21:00'), appt('y', '22:30')], lateNight);
    expect(agenda.items.map((a) => a.id)).toEqual(['x', 'y']);
    expect(agenda.nextIndex).toBe(1);
  });
});
