import { describe, expect, it } from 'vitest';
import { doctorActions } from './actions.ts';

describe('doctorActions', () => {
  it.each([
    // status, payment, [markPaid, checkIn, cancel, saveLink]
    ['confirmado', 'pendente', [true, false, true, true]],
    ['confirmado', 'pago', [false, true, true, true]],
    ['reagendado', 'pago', [false, true, true, true]],
    ['pendente', null, [true, false, true, true]],
    ['confirmado', 'cancelado', [false, false, true, true]],
    ['atendido', 'pago', [false, false, false, true]],
    ['cancelado', 'pendente', [false, false, false, false]],
    ['cancelado', 'pago', [false, false, false, false]],
    ['expirado', 'pendente', [false, false, false, false]],
  ] as const)('%s / %s', (status, pagamento_status, [markPaid, checkIn, cancel, saveLink]) => {
    expect(doctorActions({ status: status, pagamento_status })).toEqual({
      canMarkPaid: markPaid,
      canCheckIn: checkIn,
      canCancel: cancel,
      canSaveLink: saveLink,
    });
  });
});
