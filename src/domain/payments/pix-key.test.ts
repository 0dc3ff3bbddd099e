import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { PIX_KEY_PATTERN } from '@/domain/rules/pix.ts';
import { isValidCnpj, normalizePixKey, PixSettingsForm, pixKeyTypeOf } from './pix-key.ts';

describe('normalizePixKey: one stored form per key type', () => {
  it.each([
    ['cpf', '529.982.247-25', '52998224725'],
    ['cpf', '529.982.247-24', null],
    ['cnpj', '11.222.333/0001-81', '11222333000181'],
    ['cnpj', '11.222.333/0001-80', null],
    ['email', ' Medica@Clinica.Example ', 'medica@clinica.example'],
    ['email', 'sem-arroba', null],
    ['telefone', '(11) 98765-4321', '+5511987654321'],
    ['telefone', '+55 11 98765-4321', '+5511987654321'],
    ['telefone', '98765-4321', null],
    ['aleatoria', '123E4567-E89B-12D3-A456-426614174000', '123e4567-e89b-12d3-a456-426614174000'],
    ['aleatoria', '123e4567e89b12d3a456426614174000', null],
  ] as const)('%s %s → %s', (type, raw, stored) => {
    const key = normalizePixKey(type, raw);
    expect(key).toBe(stored);
    if (key) {
      expect(new RegExp(PIX_KEY_PATTERN).test(key)).toBe(true);
      expect(pixKeyTypeOf(key)).toBe(type);
    }
  });

  it('checks CNPJ digits', () => {
    expect(isValidCnpj('11222333000181')).toBe(true);
    expect(isValidCnpj('11111111111111')).toBe(false);
  });
});

describe('PixSettingsForm', () => {
  it('an empty key removes PIX', () => {
    expect(v.parse(PixSettingsForm, { tipo: 'cpf', chave: ' ', cidade: 'x' })).toEqual({
      pix_chave: null,
      pix_cidade: null,
    });
  });
  it('a key needs a city, and says what is wrong in Portuguese', () => {
    const result = v.safeParse(PixSettingsForm, { tipo: 'cpf', chave: '123', cidade: '' });
    expect(result.success).toBe(false);
    expect(result.issues?.map((i) => [v.getDotPath(i), i.message])).toEqual([
      ['chave', 'CPF inválido.'],
      ['cidade', 'Informe a cidade para o PIX.'],
    ]);
  });
  it('stores the normalised key and the trimmed city', () => {
    expect(
      v.parse(PixSettingsForm, {
        tipo: 'telefone',
        chave: '(11) 98765-4321',
        cidade: ' São Paulo ',
      }),
    ).toEqual({ pix_chave: '+5511987654321', pix_cidade: 'São Paulo' });
  });
});
