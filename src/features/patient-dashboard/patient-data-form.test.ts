import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { cpfForDisplay, parseForm, toForm } from './patient-data-form.ts';

const now = Temporal.Instant.from('2026-11-21T15:00:00Z');
const valid = { full_name: 'Ana Souza', data_nasc: '15/03/1990', whatsapp: '(11) 98765-4321' };

describe('parseForm', () => {
  it('sends the birth date as yyyy-MM-dd and keeps the WhatsApp as typed', () => {
    expect(parseForm(valid, now)).toEqual({
      ok: true,
      value: { full_name: 'Ana Souza', data_nasc: '1990-03-15', whatsapp: '(11) 98765-4321' },
    });
  });

  it.each(['(11) 9876', '+44 20 7946 0958'])(
    'saves a partial or foreign WhatsApp as typed: %s',
    (whatsapp) => {
      const result = parseForm({ ...valid, whatsapp }, now);
      expect(result.ok && result.value.whatsapp).toBe(whatsapp);
    },
  );

  it('clears blank optional fields', () => {
    expect(parseForm({ ...valid, data_nasc: ' ', whatsapp: '' }, now)).toEqual({
      ok: true,
      value: { full_name: 'Ana Souza', data_nasc: null, whatsapp: null },
    });
  });

  it.each([
    [{ full_name: '  ' }, 'full_name', 'Nome é obrigatório'],
    [{ data_nasc: '31/02/1990' }, 'data_nasc', 'Data de nascimento inválida.'],
    [{ data_nasc: '15/03' }, 'data_nasc', 'Data de nascimento inválida.'],
    [{ data_nasc: '22/11/2008' }, 'data_nasc', 'Você deve ter no mínimo 18 anos.'],
    [{ whatsapp: '9'.repeat(31) }, 'whatsapp', 'WhatsApp deve ter no máximo 30 caracteres.'],
  ])('%o → %s: %s', (change, field, message) => {
    const result = parseForm({ ...valid, ...change }, now);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[field as keyof typeof result.errors]).toBe(message);
  });
});

describe('toForm', () => {
  it('shows the stored profile masked', () => {
    expect(toForm({ full_name: 'Ana', data_nasc: '1990-03-15', whatsapp: '11987654321' })).toEqual({
      full_name: 'Ana',
      data_nasc: '15/03/1990',
      whatsapp: '(11) 98765-4321',
    });
    expect(toForm(null)).toEqual({ full_name: '', data_nasc: '', whatsapp: '' });
    expect(cpfForDisplay('52998224725')).toBe('529.982.247-25');
  });
});
