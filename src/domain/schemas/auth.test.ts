import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import {
  createLoginSchema,
  CONSENT_REQUIRED,
  createSignupSchema,
  passwordFormSchema,
  recoverySchema,
  toSignupMetadata,
} from './auth.ts';
import { validate } from './validate.ts';
import { TERMS_VERSION } from '../rules/consent.ts';

// 23 Nov 2026, 09:00 in São Paulo.
const now = Temporal.Instant.from('2026-11-23T12:00:00Z');

const validSignup = {
  full_name: '  Maria da Silva ',
  cpf: '529.982.247-25',
  data_nasc: '23/11/2008',
  email: ' Maria@Example.com ',
  password: 'segredo123',
  whatsapp: '(11) 98765-4321',
  consentimento: true,
};

describe('signup schema', () => {
  it('normalises a valid sign-up into the metadata the profile trigger reads', () => {
    const result = validate(createSignupSchema(now), validSignup);
    expect(result.ok && toSignupMetadata(result.value)).toEqual({
      full_name: 'Maria da Silva',
      cpf: '52998224725',
      whatsapp: '(11) 98765-4321',
      role: 'paciente',
      data_nasc: '2008-11-23',
      consentimento_telemedicina: TERMS_VERSION,
    });
    expect(result.ok && result.value.email).toBe('maria@example.com');
  });

  it.each([
    ['empty name', { full_name: '   ' }, 'full_name', 'Nome é obrigatório'],
    ['consent not given', { consentimento: false }, 'consentimento', CONSENT_REQUIRED],
    ['empty CPF', { cpf: '' }, 'cpf', 'CPF é obrigatório'],
    ['bad CPF check digits', { cpf: '529.982.247-24' }, 'cpf', 'CPF inválido.'],
    ['all-same CPF', { cpf: '111.111.111-11' }, 'cpf', 'CPF inválido.'],
    [
      'birth year typo before 1900',
      { data_nasc: '10/05/0990' },
      'data_nasc',
      'Data de nascimento inválida.',
    ],
    [
      'WhatsApp over 30 characters',
      { whatsapp: '1'.repeat(31) },
      'whatsapp',
      'WhatsApp deve ter no máximo 30 caracteres.',
    ],
    ['empty birth date', { data_nasc: '' }, 'data_nasc', 'Data de nascimento é obrigatória'],
    [
      'impossible birth date',
      { data_nasc: '31/02/2000' },
      'data_nasc',
      'Data de nascimento inválida.',
    ],
    [
      'turns 18 tomorrow',
      { data_nasc: '24/11/2008' },
      'data_nasc',
      'Você deve ter no mínimo 18 anos.',
    ],
    [
      'future birth date',
      { data_nasc: '01/01/2030' },
      'data_nasc',
      'Você deve ter no mínimo 18 anos.',
    ],
    ['empty e-mail', { email: '' }, 'email', 'E-mail é obrigatório'],
    ['bad e-mail', { email: 'maria@' }, 'email', 'Endereço de e-mail inválido'],
    ['empty password', { password: '' }, 'password', 'Senha é obrigatória'],
    [
      'short password',
      { password: '1234567' },
      'password',
      'A senha deve ter no mínimo 8 caracteres',
    ],
  ])('%s', (_name, override, field, message) => {
    const result = validate(createSignupSchema(now), { ...validSignup, ...override });
    expect(result).toEqual({ ok: false, errors: { [field]: message } });
  });

  it.each([
    ['missing', undefined, null],
    ['blank', '  ', null],
    ['given', '11 98765-4321', '11 98765-4321'],
  ])('WhatsApp is optional: %s', (_name, whatsapp, expected) => {
    const result = validate(createSignupSchema(now), { ...validSignup, whatsapp });
    expect(result.ok && result.value.whatsapp).toBe(expected);
  });

  it.each(['(11) 9876', '(11) 3333-444', '+351 912 345 678'])(
    'saves a partial or foreign WhatsApp as typed: %s',
    (whatsapp) => {
      const result = validate(createSignupSchema(now), { ...validSignup, whatsapp });
      expect(result.ok && result.value.whatsapp).toBe(whatsapp);
    },
  );

  it('judges age on the São Paulo date: 22 Nov 23:30 local is 23 Nov in UTC, still 17', () => {
    const lateEvening = Temporal.Instant.from('2026-11-23T02:30:00Z');
    const result = validate(createSignupSchema(lateEvening), validSignup);
    expect(result).toEqual({
      ok: false,
      errors: { data_nasc: 'Você deve ter no mínimo 18 anos.' },
    });
  });
});

describe('login schema', () => {
  it.each([
    ['patient, valid', 'paciente', 'ana@example.com', 'segredo123', {}],
    [
      'patient, short password',
      'paciente',
      'ana@example.com',
      'curta',
      { password: 'A senha deve ter no mínimo 8 caracteres' },
    ],
    ['doctor, short password is enough', 'medico', 'dr@example.com', '1', {}],
    ['doctor, empty password', 'medico', 'dr@example.com', '', { password: 'Senha é obrigatória' }],
    ['empty e-mail', 'paciente', '', 'segredo123', { email: 'E-mail é obrigatório' }],
    ['invalid e-mail', 'medico', 'dr.example.com', 'x', { email: 'Endereço de e-mail inválido' }],
  ] as const)('%s', (_name, target, email, password, errors) => {
    const result = validate(createLoginSchema(target), { email, password });
    expect(result.ok ? {} : result.errors).toEqual(errors);
  });
});

describe('password form', () => {
  it.each([
    ['valid', 'novasenha1', 'novasenha1', {}],
    ['empty password', '', 'x', { password: 'Nova senha é obrigatória' }],
    ['short password', 'curta', 'curta', { password: 'A senha deve ter no mínimo 8 caracteres' }],
    ['empty confirmation', 'novasenha1', '', { confirmPassword: 'Confirmação é obrigatória' }],
    ['mismatch', 'novasenha1', 'novasenha2', { confirmPassword: 'As senhas não coincidem' }],
    [
      'spaces count (never trimmed)',
      'novasenha1 ',
      'novasenha1',
      { confirmPassword: 'As senhas não coincidem' },
    ],
  ])('%s', (_name, password, confirmPassword, errors) => {
    const result = validate(passwordFormSchema, { password, confirmPassword });
    expect(result.ok ? {} : result.errors).toEqual(errors);
  });
});

describe('recovery schema', () => {
  it.each([
    ['valid', 'ana@example.com', {}],
    ['empty', '', { email: 'E-mail é obrigatório' }],
    ['invalid', 'ana', { email: 'Endereço de e-mail inválido' }],
    ['missing field', undefined, { email: 'E-mail é obrigatório' }],
  ])('%s', (_name, email, errors) => {
    const result = validate(recoverySchema, { email });
    expect(result.ok ? {} : result.errors).toEqual(errors);
  });
});
