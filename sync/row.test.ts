import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { normaliseInstant, rowToDoc } from './row.ts';
import { TABLES } from './tables.ts';

describe('server rows', () => {
  it.each([
    '2026-11-23T12:00:00+00:00',
    '2026-11-23T12:00:00.123450+00:00',
    '2026-11-23T12:00:00.500000+00:00',
    '2026-11-23T12:00:00.000000+00:00',
    '2026-11-23T12:00:00Z',
    '2026-11-23T09:00:00-03:00',
    '2026-01-01 00:00:05.123456+00',
  ])('[R5] %s is stored as Temporal spells the instant', (value) => {
    expect(normaliseInstant(value)).toBe(Temporal.Instant.from(value).toString());
  });

  it('[R4] a row keeps only the schema columns, nulls for missing ones, and _modified as server_modified', () => {
    const spec = TABLES.find((t) => t.name === 'guias')!;
    const doc = rowToDoc(spec, {
      id: 'g1',
      agendamento_id: 'a1',
      protocolo: 'SJ-2026-ABCD-EFGH',
      data_emissao: '2026-11-21T10:00:00+00:00',
      paciente_snapshot: { nome: 'Maria' },
      patient_id: 'p1',
      _modified: '2026-11-21T10:00:00.123456+00:00',
      _deleted: false,
    });
    expect(doc).toEqual({
      id: 'g1',
      agendamento_id: 'a1',
      protocolo: 'SJ-2026-ABCD-EFGH',
      pdf_url: null,
      data_emissao: '2026-11-21T10:00:00Z',
      qr_text: null,
      paciente_snapshot: { nome: 'Maria' },
      medico_snapshot: null,
      servico_snapshot: null,
      server_modified: '2026-11-21T10:00:00.123456+00:00',
      _deleted: false,
    });
  });
});
