import { describe, expect, it } from 'vitest';
import { doctorBadge, patientBadge } from './badges.ts';

describe('badges', () => {
  it.each([
    // status, payment, doctor badge, patient badge
    ['confirmado', 'pago', ['Confirmado', 'success'], ['Confirmada e Paga', 'success']],
    ['reagendado', 'pago', ['Confirmado', 'success'], ['Confirmada e Paga', 'success']],
    ['confirmado', 'pendente', ['Agendado', 'warning'], ['Aguardando Pagamento', 'warning']],
    ['pendente', null, ['Agendado', 'warning'], ['Aguardando Pagamento', 'warning']],
    ['confirmado', 'cancelado', ['Cancelado', 'destructive'], ['Cancelada', 'destructive']],
    ['atendido', 'pago', ['Atendido', 'info'], ['Realizada', 'info']],
    ['cancelado', 'pendente', ['Cancelado', 'destructive'], ['Cancelada', 'destructive']],
    ['expirado', 'pendente', ['Expirado', 'destructive'], ['Expirada', 'destructive']],
  ] as const)('%s / %s', (status, pagamento_status, doctor, patient) => {
    const appointment = { status: status, pagamento_status };
    expect(doctorBadge(appointment)).toEqual({ label: doctor[0], tone: doctor[1] });
    expect(patientBadge(appointment)).toEqual({ label: patient[0], tone: patient[1] });
  });
});
