import { describe, expect, it } from 'vitest';
import {
  formatCallDuration,
  isPatientWaiting,
  managesMeetingLink,
  roomEntry,
  roomRecordLines,
  type RoomRecordRow,
} from './room.ts';

describe('roomEntry', () => {
  const base = { id: 'a1', status: 'confirmado', meeting_link: null, sala_consulta: 'integrada' };
  it.each([
    ['the built-in room by default', base, { kind: 'room', path: '/consulta/a1' }],
    [
      'the built-in room when the choice is unknown',
      { ...base, sala_consulta: undefined },
      { kind: 'room', path: '/consulta/a1' },
    ],
    [
      'a link saved on the appointment keeps working',
      { ...base, meeting_link: 'https://meet.example.com/x' },
      { kind: 'link', url: 'https://meet.example.com/x' },
    ],
    [
      "the doctor's own link",
      { ...base, sala_consulta: 'link_externo', meeting_link: ' https://meet.example.com/x ' },
      { kind: 'link', url: 'https://meet.example.com/x' },
    ],
    ['no way in: external room without a link', { ...base, sala_consulta: 'link_externo' }, null],
    ['no way in: cancelled', { ...base, status: 'cancelado' }, null],
    ['no way in: expired', { ...base, status: 'expirado' }, null],
  ] as const)('%s', (_name, input, expected) => {
    expect(roomEntry(input)).toEqual(expected);
  });
});

describe('managesMeetingLink', () => {
  it.each([
    ['the built-in room: no link to manage', null, 'integrada', false],
    ['the built-in room by default: no link to manage', null, null, false],
    ['the built-in room with a blank link', '  ', 'integrada', false],
    [
      'the built-in room with a saved link (it wins): shown, editable',
      'https://m.example/x',
      'integrada',
      true,
    ],
    ["the doctor's own link, none saved yet", null, 'link_externo', true],
    ["the doctor's own link, saved", 'https://m.example/x', 'link_externo', true],
  ] as const)('%s', (_name, meeting_link, sala_consulta, expected) => {
    expect(managesMeetingLink({ meeting_link, sala_consulta })).toBe(expected);
  });
});

describe('room record', () => {
  const empty: RoomRecordRow = {
    status: 'confirmado',
    sala_paciente_entrou_em: null,
    chamada_iniciada_em: null,
    chamada_encerrada_em: null,
    chamada_duracao_segundos: null,
    chamada_so_audio: false,
  };
  // 13:02Z = 10:02 in São Paulo.
  const entered = '2026-11-27T13:02:00.000Z';
  const started = '2026-11-27T13:05:00.000Z';
  const ended = '2026-11-27T13:33:00.000Z';

  it.each([
    ['nothing when the room was never used', empty, []],
    [
      'the patient waiting',
      { ...empty, sala_paciente_entrou_em: entered },
      ['Paciente na sala de espera desde 10:02'],
    ],
    [
      'a call under way',
      { ...empty, sala_paciente_entrou_em: entered, chamada_iniciada_em: started },
      ['Paciente entrou na sala às 10:02', 'Chamada em andamento desde 10:05'],
    ],
    [
      'a finished call with its duration and the audio fallback',
      {
        ...empty,
        sala_paciente_entrou_em: entered,
        chamada_iniciada_em: started,
        chamada_encerrada_em: ended,
        chamada_duracao_segundos: 1680,
        chamada_so_audio: true,
      },
      [
        'Paciente entrou na sala às 10:02',
        'Chamada das 10:05 às 10:33 (28 min)',
        'A chamada passou para só áudio',
      ],
    ],
  ] as const)('%s', (_name, row, lines) => {
    expect(roomRecordLines(row)).toEqual(lines);
  });

  it('the patient is waiting again after re-entering once a call started', () => {
    expect(
      isPatientWaiting({ ...empty, chamada_iniciada_em: started, sala_paciente_entrou_em: ended }),
    ).toBe(true);
    expect(
      isPatientWaiting({ ...empty, sala_paciente_entrou_em: entered, status: 'atendido' }),
    ).toBe(false);
  });

  it.each([
    [45, '45 s'],
    [60, '1 min'],
    [1680, '28 min'],
    [3900, '1 h 05 min'],
  ])('formats %i s as %s', (seconds, text) => {
    expect(formatCallDuration(seconds)).toBe(text);
  });
});
