import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../supabase/local/db/index.ts';
import {
  as,
  createDoctor,
  createPatient,
  ensureService,
  migratedDatabase,
  slot,
  user,
  ZONE,
  type TestDatabase,
} from './support.ts';

// PGlite has one connection and serialises every transaction, so the rule must hold there too,
// but a smaller run keeps it quick; PostgreSQL runs the full size with real concurrency.
const onPostgres = Boolean(process.env.DATABASE_URL);
const CONTENDERS = 50;
const RANDOM_ATTEMPTS = onPostgres ? 2000 : 200;
const RANDOM_SLOTS = onPostgres ? 100 : 20;

let t: TestDatabase;
let db: Database;
let patients: string[];

type Outcome = { ok: true; id: string } | { ok: false; code?: string; message: string };

function attempt(patientId: string, medicoId: string, start: string): Promise<Outcome> {
  return as(db, user(patientId), (tx) =>
    tx.query<{ id: string }>('select id from public.paciente_agendar($1, $2, $3)', [
      medicoId,
      start,
      randomUUID(),
    ]),
  ).then(
    (r) => ({ ok: true, id: r.rows[0]!.id }),
    (e: { code?: string; message: string }) => ({ ok: false, code: e.code, message: e.message }),
  );
}

/** Live bookings of a doctor that overlap another live booking of the same doctor. */
async function overlaps(medicoId: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `select count(*) as n from public.agendamentos a join public.agendamentos b
       on a.medico_id = b.medico_id and a.id < b.id
      and tstzrange(a.horario_inicio, a.horario_fim) && tstzrange(b.horario_inicio, b.horario_fim)
     where a.medico_id = $1
       and a.status in ('confirmado', 'atendido', 'reagendado', 'pendente')
       and b.status in ('confirmado', 'atendido', 'reagendado', 'pendente')`,
    [medicoId],
  );
  return Number(rows[0]!.n);
}

beforeAll(async () => {
  t = await migratedDatabase();
  db = t.db;
  await ensureService(db);
  patients = [];
  for (let n = 0; n < CONTENDERS; n++) patients.push(await createPatient(db, 1000 + n));
}, 120_000);

afterAll(() => t.dispose());

describe('concurrent booking', () => {
  it(`${CONTENDERS} patients on one slot: exactly one appointment, the rest clean 23505`, async () => {
    const doctor = await createDoctor(db, { name: 'Doutora Disputada' });
    const start = slot(3);
    const outcomes = await Promise.all(patients.map((p) => attempt(p, doctor.medicoId, start)));

    const won = outcomes.filter((o) => o.ok);
    const lost = outcomes.filter((o): o is Extract<Outcome, { ok: false }> => !o.ok);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(CONTENDERS - 1);
    for (const l of lost) {
      expect(l.code).toBe('23505');
      expect(l.message).toContain('agendamentos_slot_unico');
    }
    const { rows } = await db.query<{ n: string }>(
      'select count(*) as n from public.agendamentos where medico_id = $1',
      [doctor.medicoId],
    );
    expect(Number(rows[0]!.n)).toBe(1);
  }, 120_000);

  it(`${RANDOM_ATTEMPTS} random attempts over ${RANDOM_SLOTS} overlapping slots: no double booking`, async () => {
    // A 15-minute grid with 30-minute consultations: neighbouring slots overlap, so both the
    // unique index and the exclusion constraint are contended.
    const doctor = await createDoctor(db, { name: 'Doutor Aleatório', interval: 15 });
    // 23:45 is no slot: its 30 minutes would run past the 24:00 end of the block.
    const starts = Array.from({ length: RANDOM_SLOTS + 8 }, (_, i) => slot(i, 15))
      .filter(
        (s) => !Temporal.Instant.from(s).toZonedDateTimeISO(ZONE).toPlainTime().equals('23:45'),
      )
      .slice(0, RANDOM_SLOTS);
    const picks = Array.from({ length: RANDOM_ATTEMPTS }, () => ({
      patient: patients[Math.floor(Math.random() * patients.length)]!,
      start: starts[Math.floor(Math.random() * starts.length)]!,
    }));
    const outcomes = await Promise.all(
      picks.map((p) => attempt(p.patient, doctor.medicoId, p.start)),
    );

    const failures = outcomes.filter((o): o is Extract<Outcome, { ok: false }> => !o.ok);
    // A patient who already holds the open unpaid bookings allowed with one doctor is refused
    // by the cap (tests/db/rpc-rules.test.ts) before the slot is contended: P0001.
    const capped = failures.filter((f) => f.code === 'P0001');
    for (const f of capped) expect(f.message).toContain('reservas não pagas demais');
    expect(new Set(failures.filter((f) => f.code !== 'P0001').map((f) => f.code))).toEqual(
      new Set(['23505']),
    );
    expect(await overlaps(doctor.medicoId)).toBe(0);

    const { rows } = await db.query<{ n: string }>(
      'select count(*) as n from public.agendamentos where medico_id = $1',
      [doctor.medicoId],
    );
    expect(Number(rows[0]!.n)).toBe(outcomes.length - failures.length);
    // Every start attempted by a patient the cap let through is either booked or overlapped
    // by a booking: nothing was lost.
    const contended = picks.filter((_, i) => {
      const o = outcomes[i]!;
      return o.ok || o.code !== 'P0001';
    });
    const { rows: free } = await db.query<{ n: string }>(
      `select count(*) as n from unnest($2::timestamptz[]) s
       where not exists (select 1 from public.agendamentos a
         where a.medico_id = $1 and tstzrange(a.horario_inicio, a.horario_fim) && tstzrange(s, s + interval '30 minutes'))`,
      [doctor.medicoId, [...new Set(contended.map((p) => p.start))]],
    );
    expect(Number(free[0]!.n)).toBe(0);
  }, 300_000);
});
