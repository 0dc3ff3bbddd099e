import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { isRecentlyConfirmed } from './email-confirmation.ts';
import { isProfileComplete, missingProfileFields, orNotInformed } from './profile-completeness.ts';

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
    expect(isProfileComplete(profile)).toBe(missing.length === 0);
  });

  it.each([
    ['value', 'Ana', 'Ana'],
    ['empty', '', 'Não informado'],
    ['null', null, 'Não informado'],
  ])('orNotInformed: %s', (_name, value, expected) => {
    expect(orNotInformed(value)).toBe(expected);
  });
});

describe('isRecentlyConfirmed (60 s window)', () => {
  const now = Temporal.Instant.from('2026-11-23T12:00:00Z');
  it.each([
    ['confirmed 10 s ago', '2026-11-23T11:59:50Z', true],
    ['confirmed exactly 60 s ago', '2026-11-23 11:59:00+00', true],
    ['confirmed 61 s ago', '2026-11-23T11:58:59Z', false],
    ['confirmation in the future (clock skew)', '2026-11-23T12:00:30Z', false],
    ['never confirmed', null, false],
    ['unreadable', 'ontem', false],
  ])('%s', (_name, confirmedAt, expected) => {
    expect(isRecentlyConfirmed(confirmedAt, now)).toBe(expected);
  });
});
