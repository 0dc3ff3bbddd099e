import { describe, expect, it } from 'vitest';
import {
  centsToPriceInput,
  centsToReais,
  formatCents,
  parsePriceInput,
  reaisToCents,
} from './money.ts';

describe('reaisToCents / centsToReais', () => {
  it.each([
    ['whole reais', 130, 13000],
    ['fifty centavos', 130.5, 13050],
    ['float noise 1.005 rounds half up', 1.005, 101],
    ['float noise 0.29', 0.29, 29],
    ['zero', 0, 0],
    ['sub-cent rounds down', 10.004, 1000],
  ])('%s: %d → %d', (_name, reais, cents) => {
    expect(reaisToCents(reais)).toBe(cents);
  });

  it.each([
    [13000, 130],
    [1, 0.01],
    [0, 0],
  ])('%d cents → %d reais', (cents, reais) => {
    expect(centsToReais(cents)).toBe(reais);
  });
});

describe('formatCents', () => {
  it.each([
    ['typical price', 13000, 'R$ 130,00'],
    ['centavos', 13050, 'R$ 130,50'],
    ['one centavo', 1, 'R$ 0,01'],
    ['thousands', 123450, 'R$ 1.234,50'],
    ['millions', 123456789, 'R$ 1.234.567,89'],
    ['zero', 0, 'R$ 0,00'],
    ['missing (null)', null, 'R$ 0,00'],
    ['missing (undefined)', undefined, 'R$ 0,00'],
    ['NaN', Number.NaN, 'R$ 0,00'],
    ['negative', -500, '-R$ 5,00'],
  ])('%s', (_name, cents, expected) => {
    expect(formatCents(cents)).toBe(expected);
  });
});

describe('parsePriceInput', () => {
  it.each([
    ['integer', '130', 13000],
    ['comma decimal', '130,50', 13050],
    ['dot decimal', '130.5', 13050],
    ['surrounding spaces', ' 99,90 ', 9990],
    ['zero', '0', 0],
    ['trailing dot', '130.', 13000],
    ['leading dot', ',5', 50],
    ['trailing zeros past the cents', '10,500', 1050],
  ])('accepts %s', (_name, input, cents) => {
    expect(parsePriceInput(input)).toEqual({ ok: true, cents });
  });

  it.each([
    ['empty', '', 'Preço é obrigatório'],
    ['only spaces', '   ', 'Preço é obrigatório'],
    ['negative', '-10', 'O preço não pode ser negativo.'],
    ['words', 'cento e trinta', 'Preço inválido. Use números (ex.: 130 ou 130.00).'],
    ['thousand separator', '1.300,00', 'Preço inválido. Use números (ex.: 130 ou 130.00).'],
    ['exponent', '1e3', 'Preço inválido. Use números (ex.: 130 ou 130.00).'],
    ['currency sign', 'R$ 130', 'Preço inválido. Use números (ex.: 130 ou 130.00).'],
    ['Infinity', 'Infinity', 'Preço inválido. Use números (ex.: 130 ou 130.00).'],
    ['a third decimal', '10,005', 'O preço aceita no máximo duas casas decimais (ex.: 130,50).'],
    [
      'a fraction of a cent',
      '130.129',
      'O preço aceita no máximo duas casas decimais (ex.: 130,50).',
    ],
  ])('rejects %s', (_name, input, message) => {
    expect(parsePriceInput(input)).toEqual({ ok: false, message });
  });
});

describe('centsToPriceInput', () => {
  it.each([
    [13000, '130.00'],
    [9990, '99.90'],
    [null, '0.00'],
  ])('%s → %s', (cents, expected) => {
    expect(centsToPriceInput(cents)).toBe(expected);
  });
});
