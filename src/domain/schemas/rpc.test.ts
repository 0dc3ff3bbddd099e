import { describe, expect, it } from 'vitest';
import {
  medicoConfirmarPagamentoArgsSchema,
  medicoSalvarLinkArgsSchema,
  pacienteAgendarArgsSchema,
  pacienteGerarGuiaArgsSchema,
  rpcOutcomeSchema,
} from './rpc.ts';
import { validate } from './validate.ts';

const ID = '3f6c1a52-8a4e-4c1e-9a57-0b8f3c2d1e10';
const MUTATION = '7a1e9c44-2b6d-4e8f-a0c3-5d9b8e7f6a21';

describe('RPC argument schemas', () => {
  it.each([
    [
      'paciente_agendar',
      pacienteAgendarArgsSchema,
      { p_medico_id: ID, p_horario_inicio: '2026-11-23T08:00:00-03:00', p_mutation_id: MUTATION },
      { p_medico_id: ID, p_horario_inicio: '2026-11-23T11:00:00Z', p_mutation_id: MUTATION },
    ],
    [
      'paciente_gerar_guia',
      pacienteGerarGuiaArgsSchema,
      { p_agendamento_id: ID, p_mutation_id: MUTATION },
      { p_agendamento_id: ID, p_mutation_id: MUTATION },
    ],
    [
      'medico_confirmar_pagamento without mutation id',
      medicoConfirmarPagamentoArgsSchema,
      { p_agendamento_id: ID },
      { p_agendamento_id: ID, p_mutation_id: null },
    ],
    [
      'medico_salvar_link',
      medicoSalvarLinkArgsSchema,
      { p_agendamento_id: ID, p_link: ' https://meet.example/abc ' },
      { p_agendamento_id: ID, p_link: 'https://meet.example/abc', p_mutation_id: null },
    ],
  ] as const)('%s accepts and normalises', (_name, schema, input, expected) => {
    expect(validate(schema, input)).toEqual({ ok: true, value: expected });
  });

  it.each([
    [
      'booking without mutation id',
      pacienteAgendarArgsSchema,
      { p_medico_id: ID, p_horario_inicio: '2026-11-23T11:00:00Z' },
      'p_mutation_id',
    ],
    [
      'booking with a local time',
      pacienteAgendarArgsSchema,
      { p_medico_id: ID, p_horario_inicio: '2026-11-23T08:00', p_mutation_id: MUTATION },
      'p_horario_inicio',
    ],
    [
      'link over http',
      medicoSalvarLinkArgsSchema,
      { p_agendamento_id: ID, p_link: 'http://meet.example/abc' },
      'p_link',
    ],
    [
      'link that is not a URL',
      medicoSalvarLinkArgsSchema,
      { p_agendamento_id: ID, p_link: 'sala 3' },
      'p_link',
    ],
    [
      'link without a dotted host',
      medicoSalvarLinkArgsSchema,
      { p_agendamento_id: ID, p_link: 'https://localhost/sala' },
      'p_link',
    ],
    [
      'link longer than 2048',
      medicoSalvarLinkArgsSchema,
      { p_agendamento_id: ID, p_link: `https://meet.example/${'a'.repeat(2048)}` },
      'p_link',
    ],
    [
      'id that is not a uuid',
      medicoConfirmarPagamentoArgsSchema,
      { p_agendamento_id: '42' },
      'p_agendamento_id',
    ],
  ] as const)('rejects %s', (_name, schema, input, field) => {
    const result = validate(schema, input);
    expect(result.ok ? [] : Object.keys(result.errors)).toEqual([field]);
  });
});

describe('rpcOutcomeSchema', () => {
  it.each([
    [
      'first row is the outcome',
      [{ success: true, message: 'Check-in realizado.' }],
      { success: true, message: 'Check-in realizado.' },
    ],
    [
      'null message becomes empty',
      [{ success: false, message: null }],
      { success: false, message: '' },
    ],
  ])('%s', (_name, input, expected) => {
    expect(validate(rpcOutcomeSchema, input)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['empty array', []],
    ['an object instead of rows', { success: true, message: 'x' }],
  ])('rejects %s', (_name, input) => {
    expect(validate(rpcOutcomeSchema, input).ok).toBe(false);
  });
});
