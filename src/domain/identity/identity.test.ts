import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { ageOn, birthDateToIso, isOfMinimumAge, maskBirthDate } from './birth-date.ts';
import { isValidCpf, maskCpf, normalizeCpf } from './cpf.ts';
import { isCompleteWhatsapp, looksIncompleteWhatsapp, maskWhatsapp } from './whatsapp.ts';

describe('isValidCpf', () => {
  it.each([
    ['masked valid CPF', '529.982.247-25', true],
    ['digits only', '52998224725', true],
    ['another valid CPF', '111.444.777-35', true],
    ['wrong first check digit', '529.982.247-15', false],
    ['wrong second check digit', '529.982.247-24', false],
    ['all zeros', '000.000.000-00', false],
    ['all the same digit', '111.111.111-11', false],
    ['too short', '529.982.247-2', false],
    ['too long', '529.982.247-251', false],
    ['empty', '', false],
  ])('%s: %s', (_name, input, expected) => {
    expect(isValidCpf(input)).toBe(expected);
  });
});

describe('masks', () => {
  it.each([
    ['CPF partial', maskCpf, '5299', '529.9'],
    ['CPF full from digits', maskCpf, '52998224725', '529.982.247-25'],
    ['CPF extra digits cut', maskCpf, '529982247251234', '529.982.247-25'],
    ['CPF letters ignored', maskCpf, 'a5b2c9', '529'],
    ['CPF exact separator boundary', maskCpf, '529982', '529.982'],
    ['birth date partial', maskBirthDate, '0512', '05/12'],
    ['birth date full', maskBirthDate, '05121990', '05/12/1990'],
    ['birth date re-masking a masked value', maskBirthDate, '05/12/1990', '05/12/1990'],
    ['WhatsApp first digits', maskWhatsapp, '1', '(1'],
    ['WhatsApp area code', maskWhatsapp, '11', '(11'],
    ['WhatsApp partial', maskWhatsapp, '119876', '(11) 9876'],
    ['WhatsApp full', maskWhatsapp, '11987654321', '(11) 98765-4321'],
    ['WhatsApp empty', maskWhatsapp, '', ''],
    ['landline partial', maskWhatsapp, '113333', '(11) 3333'],
    ['landline full', maskWhatsapp, '1133334444', '(11) 3333-4444'],
    [
      'more digits than a landline holds are kept as typed',
      maskWhatsapp,
      '11333344445',
      '11333344445',
    ],
    ['a foreign number kept as typed', maskWhatsapp, '+351 912 345 678', '+351 912 345 678'],
    [
      'a number past the mask kept as typed',
      maskWhatsapp,
      '0044 20 7946 0958',
      '0044 20 7946 0958',
    ],
    ['letters dropped from a foreign number', maskWhatsapp, '+44 20 x7946', '+44 20 7946'],
    ['mobile re-masking a masked value', maskWhatsapp, '(11) 98765-4321', '(11) 98765-4321'],
  ])('%s', (_name, mask, input, expected) => {
    expect(mask(input)).toBe(expected);
  });

  it('normalizeCpf keeps digits only', () => {
    expect(normalizeCpf(' 529.982.247-25 ')).toBe('52998224725');
  });
});

describe('looksIncompleteWhatsapp', () => {
  it.each([
    ['partial mobile', '(11) 9876', true],
    ['no DDD', '98765-4321', true],
    ['landline', '(11) 3333-4444', false],
    ['mobile', '(11) 98765-4321', false],
    ['foreign', '+44 20', false],
    ['empty', '', false],
  ])('%s', (_name, value, expected) => {
    expect(looksIncompleteWhatsapp(value)).toBe(expected);
  });
});

describe('isCompleteWhatsapp', () => {
  it.each([
    ['mobile', '(11) 98765-4321', true],
    ['landline', '(11) 3333-4444', true],
    ['with country code', '+55 11 98765-4321', true],
    ['partial mobile', '(11) 9876', false],
    ['mobile missing a digit', '(11) 98765-432', false],
    ['landline starting with 9 reads as a partial mobile', '(11) 9333-4444', false],
    ['landline starting with 1', '(11) 1333-4444', false],
    ['DDD with 0', '(01) 98765-4321', false],
    ['letters only', 'whatsapp', false],
  ])('%s', (_name, value, expected) => {
    expect(isCompleteWhatsapp(value)).toBe(expected);
  });
});

describe('birthDateToIso', () => {
  it.each([
    ['valid', '05/12/1990', '1990-12-05'],
    ['leap day', '29/02/2000', '2000-02-29'],
    ['impossible day', '30/02/2000', null],
    ['incomplete', '05/12/19', null],
  ])('%s', (_name, input, expected) => {
    expect(birthDateToIso(input)).toBe(expected);
  });
});

describe('ageOn', () => {
  it.each([
    ['day before 18th birthday', '2008-11-23', '2026-11-22', 17],
    ['on 18th birthday', '2008-11-23', '2026-11-23', 18],
    ['leap-day birth, 28 Feb of common year', '2008-02-29', '2026-02-28', 17],
    ['leap-day birth, 1 Mar of common year', '2008-02-29', '2026-03-01', 18],
    ['born today', '2026-11-23', '2026-11-23', 0],
  ])('%s', (_name, birth, today, age) => {
    expect(ageOn(Temporal.PlainDate.from(birth), Temporal.PlainDate.from(today))).toBe(age);
  });
});

describe('isOfMinimumAge (today in São Paulo)', () => {
  const birth = Temporal.PlainDate.from('2008-11-23');
  it.each([
    [
      '22 Nov 23:30 in São Paulo (already 23 Nov in UTC): not yet 18',
      '2026-11-23T02:30:00Z',
      false,
    ],
    ['23 Nov 00:00 in São Paulo: 18', '2026-11-23T03:00:00Z', true],
    ['a year later', '2027-11-23T12:00:00Z', true],
  ])('%s', (_name, now, expected) => {
    expect(isOfMinimumAge(birth, Temporal.Instant.from(now))).toBe(expected);
  });
});
