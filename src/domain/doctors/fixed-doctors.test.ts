import { describe, expect, it } from 'vitest';
import type { PublicDoctor } from './fixed-doctors.ts';
import { doctorDisplayName, listFixedDoctors } from './fixed-doctors.ts';

const FIXED = ['Dra. Ana Ribeiro', 'Dr. Paulo Mendes'];

function doctor(overrides: Partial<PublicDoctor>): PublicDoctor {
  return {
    id: 'a0000000-0000-4000-8000-000000000001',
    name: 'Ana Ribeiro',
    public_name: 'Dra. Ana Ribeiro',
    specialty: 'Clínica Geral',
    crm: '123456',
    uf: 'SP',
    bio: null,
    price_in_cents: 13000,
    image_url: null,
    doctoralia_reviews_url: null,
    is_public: true,
    is_active: true,
    created_at: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}

const paulo = doctor({
  id: 'a0000000-0000-4000-8000-000000000002',
  name: 'Paulo Mendes',
  public_name: 'Dr. Paulo Mendes',
  specialty: 'Cardiologia',
});

describe('listFixedDoctors', () => {
  it.each([
    [
      'both public and active',
      [doctor({}), paulo],
      ['Clínica Geral', 'Cardiologia'],
      [false, false],
    ],
    [
      'order follows the configuration, not the rows',
      [paulo, doctor({})],
      ['Clínica Geral', 'Cardiologia'],
      [false, false],
    ],
    [
      'Ana not public → placeholder',
      [doctor({ is_public: false }), paulo],
      ['Indisponível no momento', 'Cardiologia'],
      [true, false],
    ],
    [
      'Paulo inactive → placeholder',
      [doctor({}), { ...paulo, is_active: false }],
      ['Clínica Geral', 'Indisponível no momento'],
      [false, true],
    ],
    ['no rows at all', [], ['Indisponível no momento', 'Indisponível no momento'], [true, true]],
    [
      'a third public doctor is not listed',
      [doctor({}), paulo, doctor({ id: 'x', public_name: 'Dr. Outro' })],
      ['Clínica Geral', 'Cardiologia'],
      [false, false],
    ],
  ])('%s', (_name, rows, specialties, fallbacks) => {
    const listed = listFixedDoctors(rows, FIXED);
    expect(listed.map((d) => d.specialty)).toEqual(specialties);
    expect(listed.map((d) => d.is_fallback)).toEqual(fallbacks);
  });

  it('picks the earliest created duplicate', () => {
    const older = doctor({ id: 'older', created_at: '2025-06-01T00:00:00Z' });
    const newer = doctor({ id: 'newer', created_at: '2026-06-01T00:00:00Z' });
    expect(listFixedDoctors([newer, older], FIXED)[0]?.id).toBe('older');
  });

  it('builds the placeholder of docs/product-rules.md §3', () => {
    const [placeholder] = listFixedDoctors([], FIXED);
    expect(placeholder).toMatchObject({
      id: 'fallback-dra-ana-ribeiro',
      public_name: 'Dra. Ana Ribeiro',
      specialty: 'Indisponível no momento',
      crm: '000000',
      uf: 'BR',
      price_in_cents: 0,
      is_fallback: true,
    });
  });
});

describe('doctorDisplayName', () => {
  it.each([
    [
      'public name first',
      { name: 'Ana Ribeiro', public_name: 'Dra. Ana Ribeiro' },
      'Dra. Ana Ribeiro',
    ],
    ['blank public name falls back', { name: 'Ana Ribeiro', public_name: '  ' }, 'Ana Ribeiro'],
    ['missing public name falls back', { name: 'Ana Ribeiro', public_name: null }, 'Ana Ribeiro'],
  ])('%s', (_name, input, expected) => {
    expect(doctorDisplayName(input)).toBe(expected);
  });
});
