import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';
import { cpfFor } from './support.ts';

let t: TestPlatform;

beforeAll(async () => {
  t = await startTestPlatform({ config: { autoconfirm: true } });
}, 60_000);

afterAll(() => t.stop());

const signUp = (email: string, data: Record<string, unknown>) =>
  t.client().auth.signUp({ email, password: 'senha-segura-123', options: { data } });

describe('self sign-up through /auth/v1', () => {
  it('always yields a paciente, whatever role the metadata claims', async () => {
    const { data, error } = await signUp('quero-ser-medico@test.example', {
      full_name: 'Quero Ser Médico',
      cpf: cpfFor(900),
      data_nasc: '1990-01-01',
      role: 'medico',
    });
    expect(error).toBeNull();
    const profile = await t.admin
      .from('perfis_usuarios')
      .select('role')
      .eq('id', data.user!.id)
      .single();
    expect(profile.data).toEqual({ role: 'paciente' });
  });

  it('cannot promote itself later through user metadata', async () => {
    const client = t.client();
    await client.auth.signUp({
      email: 'promove@test.example',
      password: 'senha-segura-123',
      options: { data: { full_name: 'Promove', cpf: cpfFor(901), data_nasc: '1990-01-01' } },
    });
    const updated = await client.auth.updateUser({ data: { role: 'medico' } });
    expect(updated.error).toBeNull();
    const profile = await client.from('perfis_usuarios').select('role').single();
    expect(profile.data).toEqual({ role: 'paciente' });
    const booked = await client.rpc('medico_confirmar_pagamento', {
      p_agendamento_id: crypto.randomUUID(),
    });
    expect(booked.error?.message).toBe('Apenas médicos podem confirmar pagamentos.');
  });

  it('refuses an invalid CPF with a client error, not a crash', async () => {
    const { error } = await signUp('cpf-ruim@test.example', {
      full_name: 'CPF Ruim',
      cpf: '12345678900',
    });
    // GoTrue's wording for a rejected profile insert; the form validates the CPF beforehand.
    expect(error).toMatchObject({ status: 422, message: 'Database error saving new user' });
  });
});
