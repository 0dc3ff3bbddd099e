import { describe, expect, it } from 'vitest';
import { missingProfileFields, orNotInformed } from './profile-completeness.ts';

const complete = {
  full_name: 'Ana',
  cpf: '52998224725',
  data_nasc: '1990-05-10',
  whatsapp: '(11) 98765-4321',
};

describe('profile completeness for booking', () => {
  it.each([
    ['complete', complete, []],
    ['no WhatsApp', { ...complete, whatsapp: null }, ['whatsapp']],
    [
      'blank name and no birth date',
      { ...complete, full_name: '  ', data_nasc: null },
      ['full_name', 'data_nasc'],
    ],
    ['no profile yet', null, ['full_name', 'cpf', 'data_nasc', 'whatsapp']],
  ])('%s', (_name, profile, missing) => {
    expect(missingProfileFields(profile)).toEqual(missing);
  });

  it.each([
    ['value', 'Ana', 'Ana'],
    ['empty', '', 'Não informado'],
    ['null', null, 'Não informado'],
  ])('orNotInformed: %s', (_name, value, expected) => {
    expect(orNotInformed(value)).toBe(expected);
  });
});
