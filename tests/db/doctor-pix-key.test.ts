import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../supabase/local/db/index.ts';
import { PIX_KEY_PATTERN } from '../../src/domain/rules/pix.ts';
import {
  ANON,
  as,
  createDoctor,
  createPatient,
  migratedDatabase,
  rejection,
  user,
  type DoctorFixture,
  type TestDatabase,
} from './support.ts';

/** medicos.pix_chave / pix_cidade (migration 20261125140000): the doctor's own fields. */

let t: TestDatabase;
let db: Database;
let doctorX: DoctorFixture;
let doctorY: DoctorFixture;
let patient: string;

beforeAll(async () => {
  t = await migratedDatabase();
  db = t.db;
  doctorX = await createDoctor(db, { name: 'Doutora Pix' });
  doctorY = await createDoctor(db, { name: 'Doutor Outro' });
  patient = await createPatient(db, 41);
});

afterAll(() => t.dispose());

const setKey = (key: string | null, city: string | null) => (tx: { query: Database['query'] }) =>
  tx.query('update public.medicos set pix_chave = $1, pix_cidade = $2 where id = $3 returning id', [
    key,
    city,
    doctorX.medicoId,
  ]);

describe('pix_chave', () => {
  it('the doctor sets and clears their own key; the stored key is read with the row', async () => {
    const set = await as(db, user(doctorX.userId), setKey('+5511987654321', 'São Paulo'));
    expect(set.rows).toHaveLength(1);
    const seen = await as(db, ANON, (tx) =>
      tx.query<{ pix_chave: string }>('select pix_chave from public.medicos where id = $1', [
        doctorX.medicoId,
      ]),
    );
    expect(seen.rows[0]?.pix_chave).toBe('+5511987654321');
    const cleared = await as(db, user(doctorX.userId), setKey(null, null));
    expect(cleared.rows).toHaveLength(1);
  });

  it('nobody else changes it: another doctor and a patient reach no row, a visitor is refused', async () => {
    expect((await as(db, user(doctorY.userId), setKey('a@b.co', 'Rio'))).rows).toHaveLength(0);
    expect((await as(db, user(patient), setKey('a@b.co', 'Rio'))).rows).toHaveLength(0);
    expect((await rejection(as(db, ANON, setKey('a@b.co', 'Rio')))).code).toBe('42501');
  });

  it.each([
    ['529.982.247-25', 'São Paulo'],
    ['Medica@Clinica.Example', 'São Paulo'],
    ['11987654321x', 'São Paulo'],
    ['medica@clinica.example', null],
  ])('refuses a key not in its stored form, or without a city: %s / %s', async (key, city) => {
    const error = await rejection(as(db, user(doctorX.userId), setKey(key, city)));
    expect(error.code).toBe('23514');
  });

  it('the check constraint is the pattern the app and the replica validate with', async () => {
    const { rows } = await db.query<{ def: string }>(
      `select pg_get_constraintdef(oid) as def from pg_constraint
       where conname = 'medicos_pix_chave_formato'`,
    );
    expect(rows[0]?.def).toContain(PIX_KEY_PATTERN.replace(/\\\\/g, '\\'));
  });
});
