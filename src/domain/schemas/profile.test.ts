import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { createPatientDataSchema, doctorProfileSchema } from './profile.ts';
import { validate } from './validate.ts';

describe('patient data schema', () => {
  const patientDataSchema = createPatientDataSchema(Temporal.Instant.from('2026-11-23T12:00:00Z'));

  it('keeps only full_name, whatsapp and data_nasc', () => {
    const result = validate(patientDataSchema, {
      full_name: ' Ana ',
      whatsapp: '',
      data_nasc: '1990-05-10',
      cpf: '52998224725',
      email: 'other@example.com',
      role: 'medico',
    });
    expect(result).toEqual({
      ok: true,
      value: { full_name: 'Ana', whatsapp: null, data_nasc: '1990-05-10' },
    });
  });

  it.each([
    ['empty name', { full_name: '' }, { full_name: 'Nome é obrigatório' }],
    [
      'bad date',
      { full_name: 'Ana', data_nasc: '1990-02-30' },
      { data_nasc: 'Data de nascimento inválida.' },
    ],
    [
      'before 1900',
      { full_name: 'Ana', data_nasc: '0990-05-10' },
      { data_nasc: 'Data de nascimento inválida.' },
    ],
    [
      'under 18',
      { full_name: 'Ana', data_nasc: '2008-11-24' },
      { data_nasc: 'Você deve ter no mínimo 18 anos.' },
    ],
    [
      'WhatsApp longer than the column',
      { full_name: 'Ana', whatsapp: '9'.repeat(31) },
      { whatsapp: 'WhatsApp deve ter no máximo 30 caracteres.' },
    ],
    ['cleared date', { full_name: 'Ana', data_nasc: '' }, {}],
    ['null date', { full_name: 'Ana', data_nasc: null }, {}],
  ])('%s', (_name, input, errors) => {
    const result = validate(patientDataSchema, input);
    expect(result.ok ? {} : result.errors).toEqual(errors);
  });
});

const validProfile = {
  public_name: 'Dra. Ana Ribeiro',
  specialty: 'Clínica Geral',
  crm: '123456',
  uf: 'sp',
  bio: '',
  price: '130,50',
  doctoralia_reviews_url: '',
};

describe('doctor profile schema', () => {
  it('derives both price columns and normalises optional fields', () => {
    expect(validate(doctorProfileSchema, validProfile)).toEqual({
      ok: true,
      value: {
        public_name: 'Dra. Ana Ribeiro',
        specialty: 'Clínica Geral',
        crm: '123456',
        uf: 'SP',
        bio: null,
        doctoralia_reviews_url: null,
        price_in_cents: 13050,
        consulta_preco: 130.5,
      },
    });
  });

  it.each([
    ['empty public name', { public_name: ' ' }, 'public_name', 'Nome público é obrigatório'],
    ['empty specialty', { specialty: '' }, 'specialty', 'Especialidade é obrigatória'],
    ['empty CRM', { crm: '' }, 'crm', 'CRM é obrigatório'],
    ['empty UF', { uf: '' }, 'uf', 'UF é obrigatório'],
    ['UF too long', { uf: 'SPX' }, 'uf', 'UF inválida. Use a sigla do estado (ex.: SP).'],
    ['UF of one letter', { uf: 'S' }, 'uf', 'UF inválida. Use a sigla do estado (ex.: SP).'],
    ['UF with a digit', { uf: 'S1' }, 'uf', 'UF inválida. Use a sigla do estado (ex.: SP).'],
    [
      'CRM over 20 characters',
      { crm: '1'.repeat(21) },
      'crm',
      'CRM deve ter no máximo 20 caracteres.',
    ],
    [
      'reviews URL with a space',
      { doctoralia_reviews_url: 'https://doctoralia.com.br/ana ribeiro' },
      'doctoralia_reviews_url',
      'Por favor, insira uma URL válida.',
    ],
    ['empty price', { price: '' }, 'price', 'Preço é obrigatório'],
    ['negative price', { price: '-1' }, 'price', 'O preço não pode ser negativo.'],
    [
      'price with letters',
      { price: '130 reais' },
      'price',
      'Preço inválido. Use números (ex.: 130 ou 130.00).',
    ],
    [
      'price with a third decimal (not rounded away)',
      { price: '130,555' },
      'price',
      'O preço aceita no máximo duas casas decimais (ex.: 130,50).',
    ],
    [
      'reviews URL not a URL',
      { doctoralia_reviews_url: 'doctoralia' },
      'doctoralia_reviews_url',
      'Por favor, insira uma URL válida.',
    ],
    [
      'reviews URL with a script scheme',
      { doctoralia_reviews_url: 'javascript:alert(1)' },
      'doctoralia_reviews_url',
      'Por favor, insira uma URL válida.',
    ],
  ])('%s', (_name, override, field, message) => {
    const result = validate(doctorProfileSchema, { ...validProfile, ...override });
    expect(result.ok ? {} : result.errors).toEqual({ [field]: message });
  });

  it.each([
    ['number price from a numeric input', { price: 99.9 }, 9990],
    [
      'https reviews URL kept',
      { doctoralia_reviews_url: 'https://www.doctoralia.com.br/x' },
      13050,
    ],
  ])('%s', (_name, override, cents) => {
    const result = validate(doctorProfileSchema, { ...validProfile, ...override });
    expect(result.ok && result.value.price_in_cents).toBe(cents);
  });
});
