import { describe, expect, it } from 'vitest';
import { foldForSearch, keyMatches, searchKeyOf, type SearchFields } from './search.ts';

/** How the doctor's list searches (src/features/doctor-dashboard/doctor-lists.ts). */
function matchesSearch(fields: SearchFields, query: string): boolean {
  return keyMatches(searchKeyOf(fields), foldForSearch(query));
}

const row = { patientName: 'João da Conceição', protocol: 'SJ-2026-000123' };

describe('searching by name or protocol', () => {
  it.each([
    ['blank query matches everything', '   ', true],
    ['exact name', 'João da Conceição', true],
    ['case-insensitive', 'JOÃO', true],
    ['accent-insensitive', 'joao da conceicao', true],
    ['full protocol in lower case', 'sj-2026-000123', true],
    ['protocol fragment', '000123', true],
    ['protocol upper/lower', 'sj-2026', true],
    ['query with spaces around', '  conceição ', true],
    ['unrelated', 'Maria', false],
  ])('%s', (_name, query, expected) => {
    expect(matchesSearch(row, query)).toBe(expected);
  });

  it.each([
    ['missing name, protocol matches', { patientName: null, protocol: 'ABC' }, 'abc', true],
    ['missing protocol, name matches', { patientName: 'Ana', protocol: null }, 'an', true],
    ['both missing', { patientName: undefined, protocol: null }, 'a', false],
  ])('%s', (_name, fields, query, expected) => {
    expect(matchesSearch(fields, query)).toBe(expected);
  });
});

describe('searchKeyOf / keyMatches', () => {
  it('matches within one field, never across the name and the protocol', () => {
    const key = searchKeyOf({ patientName: 'Ana Luz', protocol: 'SJ-1' });
    expect(keyMatches(key, foldForSearch('LUZ'))).toBe(true);
    expect(keyMatches(key, foldForSearch('sj-1'))).toBe(true);
    expect(keyMatches(key, 'luzsj')).toBe(false);
    expect(keyMatches(key, '')).toBe(true);
    expect(keyMatches(searchKeyOf({ patientName: null, protocol: null }), 'a')).toBe(false);
  });
});
