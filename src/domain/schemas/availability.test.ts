import { describe, expect, it } from 'vitest';
import { availabilityBlockSchema } from './availability.ts';
import { validate } from './validate.ts';

const block = {
  dia_semana: 1,
  hora_inicio: '08:00:00',
  hora_fim: '12:00:00',
  intervalo_em_minutos: 15,
};

describe('availabilityBlockSchema', () => {
  it('accepts a stored block and defaults its status', () => {
    expect(validate(availabilityBlockSchema, block)).toEqual({
      ok: true,
      value: { ...block, status: 'disponivel' },
    });
  });

  it.each([
    ['weekday 7', { dia_semana: 7 }, 'dia_semana', 'Dia da semana inválido.'],
    ['interval 25', { intervalo_em_minutos: 25 }, 'intervalo_em_minutos', 'Intervalo inválido.'],
    ['HH:mm instead of HH:mm:ss', { hora_inicio: '08:00' }, 'hora_inicio', 'Horário inválido.'],
    ['end before start', { hora_fim: '07:00:00' }, 'hora_fim', 'Fim > Início'],
    ['end equal to start', { hora_fim: '08:00:00' }, 'hora_fim', 'Fim > Início'],
    ['other status', { status: 'bloqueado' }, 'status', 'Situação inválida.'],
  ])('rejects %s', (_name, override, field, message) => {
    const result = validate(availabilityBlockSchema, { ...block, ...override });
    expect(result.ok ? {} : result.errors).toEqual({ [field]: message });
  });
});
