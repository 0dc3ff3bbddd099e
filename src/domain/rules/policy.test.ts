import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { SELF_CANCEL_NOTICE_HOURS } from './policy-defaults.ts';
import { isCheckoutHold, selfCancelCheck } from './policy.ts';

const now = Temporal.Instant.from('2026-11-25T12:00:00Z');
const inHours = (h: number) => now.add({ hours: h }).toString();
const base = {
  status: 'confirmado' as const,
  pagamento_status: 'pendente',
  guia_id: 'g1',
  horario_inicio: inHours(48),
};

describe('isCheckoutHold', () => {
  it.each([
    ['no guide, unpaid', { guia_id: null }, true],
    ['guide issued', {}, false],
    ['paid without a guide', { guia_id: null, pagamento_status: 'pago' }, false],
    ['cancelled', { guia_id: null, status: 'cancelado' as const }, false],
  ])('%s', (_, patch, expected) => {
    expect(isCheckoutHold({ ...base, ...patch })).toBe(expected);
  });
});

describe('selfCancelCheck (the rule of paciente_cancelar_agendamento)', () => {
  it.each([
    ['well before the notice', {}, { allowed: true }],
    [
      'exactly at the notice',
      { horario_inicio: inHours(SELF_CANCEL_NOTICE_HOURS) },
      { allowed: true },
    ],
    [
      'inside the notice',
      { horario_inicio: inHours(SELF_CANCEL_NOTICE_HOURS - 1) },
      { allowed: false, reason: 'cancel_too_late' },
    ],
    [
      'a paid one inside the notice',
      { horario_inicio: inHours(2), pagamento_status: 'pago', guia_id: null },
      { allowed: false, reason: 'cancel_too_late' },
    ],
    ['a hold inside the notice', { horario_inicio: inHours(1), guia_id: null }, { allowed: true }],
    ['attended', { status: 'atendido' as const }, { allowed: false, reason: 'attended' }],
    ['expired', { status: 'expirado' as const }, { allowed: false, reason: 'closed' }],
  ])('%s', (_, patch, expected) => {
    expect(selfCancelCheck({ ...base, ...patch }, now)).toEqual(expected);
  });
});
