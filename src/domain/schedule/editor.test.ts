import { describe, expect, it } from 'vitest';
import type { EditorBlock } from './editor.ts';
import {
  EDITOR_WEEKDAYS,
  INTERVAL_OPTIONS,
  dayBlocks,
  newEditorBlock,
  toEditorBlock,
  validateSchedule,
} from './editor.ts';

function b(key: string, start: string, end: string, dia = 1): EditorBlock {
  return { key, dia_semana: dia, hora_inicio: start, hora_fim: end, intervalo_em_minutos: 15 };
}

describe('validateSchedule', () => {
  it.each([
    ['one valid block', [b('a', '08:00', '12:00')], {}],
    ['touching blocks', [b('a', '08:00', '10:00'), b('b', '10:00', '12:00')], {}],
    [
      'same times on different days',
      [b('a', '08:00', '12:00', 1), b('b', '08:00', '12:00', 2)],
      {},
    ],
    ['end equal to start', [b('a', '08:00', '08:00')], { a: { hora_fim: 'Fim > Início' } }],
    ['end before start', [b('a', '12:00', '08:00')], { a: { hora_fim: 'Fim > Início' } }],
    [
      'overlap flags the later start, even when typed first',
      [b('late', '09:00', '13:00'), b('early', '08:00', '10:00')],
      { late: { hora_inicio: 'Sobreposto' } },
    ],
    [
      'a block inside a long one is caught past its short predecessor',
      [b('long', '08:00', '18:00'), b('short', '09:00', '10:00'), b('third', '11:00', '12:00')],
      { short: { hora_inicio: 'Sobreposto' }, third: { hora_inicio: 'Sobreposto' } },
    ],
    [
      'both errors on one block',
      [b('a', '08:00', '12:00'), b('b', '11:00', '10:00')],
      { b: { hora_inicio: 'Sobreposto', hora_fim: 'Fim > Início' } },
    ],
    [
      'Sunday blocks are checked too',
      [b('a', '10:00', '09:00', 0)],
      { a: { hora_fim: 'Fim > Início' } },
    ],
    ['missing end time', [b('a', '08:00', '')], { a: { hora_fim: 'Obrigatório' } }],
  ])('%s', (_name, blocks, expectedErrors) => {
    const result = validateSchedule(blocks);
    if (Object.keys(expectedErrors).length === 0) {
      expect(result).toEqual({ ok: true });
    } else {
      expect(result).toEqual({
        ok: false,
        errors: expectedErrors,
        toast: {
          title: 'Erro de validação',
          description:
            'Verifique os blocos de horário. O horário final deve ser maior que o inicial e não deve haver sobreposição.',
        },
      });
    }
  });
});

describe('dayBlocks', () => {
  it.each([
    [
      'sorted by start',
      [b('c', '14:00', '15:00'), b('a', '08:00', '09:00'), b('x', '07:00', '08:00', 2)],
      ['a', 'c'],
    ],
    ['incomplete blocks go last', [b('n', '', ''), b('a', '08:00', '09:00')], ['a', 'n']],
    ['no blocks that day', [b('x', '07:00', '08:00', 2)], []],
  ])('%s', (_name, blocks, keys) => {
    expect(dayBlocks(blocks, 1).map((block) => block.key)).toEqual(keys);
  });
});

describe('editor constants and conversions', () => {
  it('lists Monday to Saturday, then Sunday', () => {
    expect(EDITOR_WEEKDAYS.map((d) => `${d.diaSemana}:${d.name}`)).toEqual([
      '1:Segunda-feira',
      '2:Terça-feira',
      '3:Quarta-feira',
      '4:Quinta-feira',
      '5:Sexta-feira',
      '6:Sábado',
      '0:Domingo',
    ]);
  });

  it('offers the six intervals', () => {
    expect([...INTERVAL_OPTIONS]).toEqual([5, 10, 15, 20, 30, 60]);
  });

  it.each([
    [
      'new block defaults to 08:00–12:00 every 15 min',
      newEditorBlock(3, 'k'),
      {
        key: 'k',
        dia_semana: 3,
        hora_inicio: '08:00',
        hora_fim: '12:00',
        intervalo_em_minutos: 15,
      },
    ],
    [
      'stored HH:mm:ss becomes HH:mm',
      toEditorBlock({
        id: 'id1',
        dia_semana: 0,
        hora_inicio: '07:30:00',
        hora_fim: '11:00:00',
        intervalo_em_minutos: 20,
      }),
      {
        key: 'id1',
        dia_semana: 0,
        hora_inicio: '07:30',
        hora_fim: '11:00',
        intervalo_em_minutos: 20,
      },
    ],
  ])('%s', (_name, actual, expected) => {
    expect(actual).toEqual(expected);
  });
});
