import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { IDBKeyRange } from 'fake-indexeddb';
import { firstValueFrom } from 'rxjs';
import type { Session } from '@supabase/supabase-js';
import {
  createDoctor,
  createPatient,
  Device,
  seedAppointments,
  signedInClient,
  slot,
  startPlatform,
  type DoctorFixture,
  type TestPlatform,
} from '../../../sync/testing/index.ts';
import { hasReplica } from '../../../sync/presence.ts';
import type { RestEndpoint } from '@/lib/rest-read.ts';
import { doctorLists } from './doctor-lists.ts';
import { readFirstConsultas, readsFirst, type FirstReadFacts } from './first-consultas.ts';

let t: TestPlatform;
let doctor: DoctorFixture;
let endpoint: RestEndpoint;
const devices: Device[] = [];

/** An appointment stored as-is (SQL), in a state the booking RPC would not leave it in. */
async function insertAppointment(patientId: string, medicoId: string, n: number, state: string[]) {
  await t.platform.ctx.db.query(
    `insert into public.agendamentos (patient_id, medico_id, servico_id, appointment_date,
       appointment_time, horario_inicio, horario_fim, price_in_cents, status, pagamento_status)
     values ($1, $2, (select id from public.servicos where nome = 'Teleconsulta'),
       ($3::timestamptz at time zone 'America/Sao_Paulo')::date,
       ($3::timestamptz at time zone 'America/Sao_Paulo')::time,
       $3::timestamptz, $3::timestamptz + interval '30 minutes', 15000, $4, $5)`,
    [patientId, medicoId, slot(n), state[0], state[1]],
  );
}

beforeAll(async () => {
  t = await startPlatform();
  endpoint = { url: t.url, key: t.anonKey };
  doctor = await createDoctor(t);
  const other = await createDoctor(t, { name: 'Dr. Outro' });
  const patients = [await createPatient(t), await createPatient(t)];
  // Twelve upcoming (two pages), history of every kind, and another doctor's rows RLS hides.
  await seedAppointments(t, doctor, patients, 12);
  await insertAppointment(patients[0]!.id, doctor.medicoId, 12, ['atendido', 'pago']);
  await insertAppointment(patients[1]!.id, doctor.medicoId, 13, ['confirmado', 'cancelado']);
  await insertAppointment(patients[0]!.id, doctor.medicoId, 14, ['cancelado', 'cancelado']);
  await seedAppointments(t, other, patients, 3);
  // A guide, so the first page carries one joined.
  const client = await signedInClient(t, patients[0]!);
  const [firstRow] = (
    await t.platform.ctx.db.query<{ id: string }>(
      `select id from public.agendamentos where medico_id = $1 and patient_id = $2
       order by horario_inicio limit 1`,
      [doctor.medicoId, patients[0]!.id],
    )
  ).rows;
  const guide = await client.rpc('paciente_gerar_guia', {
    p_agendamento_id: firstRow!.id,
    p_mutation_id: randomUUID(),
  });
  if (guide.error) throw guide.error;
}, 120_000);

afterEach(async () => {
  await Promise.all(devices.splice(0).map((d) => d.stop()));
});

afterAll(async () => {
  await t.stop();
});

/** The doctor signed in on a fresh device (no replica yet), and the session it stored. */
async function signedInDevice(): Promise<{
  device: Device;
  session: Session;
  facts: FirstReadFacts;
}> {
  const device = new Device(t);
  devices.push(device);
  await device.signIn(doctor.email);
  const { data } = await device.client.auth.getSession();
  const session = data.session!;
  const facts: FirstReadFacts = {
    session,
    online: true,
    nowEpochMs: Date.now(),
    hasReplica: (userId) =>
      hasReplica(userId, { factory: device.indexedDB, keyRange: IDBKeyRange }),
  };
  return { device, session, facts };
}

describe('the doctor dashboard first read', () => {
  it('is chosen only online, with a valid token, on a device without the person replica', async () => {
    const { device, session, facts } = await signedInDevice();
    expect(await readsFirst(facts)).toBe(true);
    expect(await readsFirst({ ...facts, online: false })).toBe(false);
    expect(await readsFirst({ ...facts, session: null })).toBe(false);
    // Expired, or about to: the replica's path refreshes the token (never signs out).
    expect(await readsFirst({ ...facts, nowEpochMs: (session.expires_at! + 1) * 1000 })).toBe(
      false,
    );
    expect(await readsFirst({ ...facts, nowEpochMs: (session.expires_at! - 10) * 1000 })).toBe(
      false,
    );

    await device.start({ id: session.user.id, role: 'medico' });
    await device.sync.awaitInitialSync();
    expect(await readsFirst(facts)).toBe(false);
    // Someone else's replica on the device does not count.
    const stranger = { ...session, user: { ...session.user, id: randomUUID() } };
    expect(await readsFirst({ ...facts, session: stranger })).toBe(true);
  });

  it("shows 'Próximas' page 1 and both counts exactly as the replica lists them", async () => {
    const { device, session } = await signedInDevice();
    const first = await readFirstConsultas(endpoint, session);

    await device.start({ id: session.user.id, role: 'medico' });
    await device.sync.awaitInitialSync();
    const replica = doctorLists(await firstValueFrom(device.sync.appointments$));
    const ownDoctor = await firstValueFrom(device.sync.ownDoctor$);

    expect(first).not.toBeNull();
    expect(first!.upcomingCount).toBe(replica.upcoming.length);
    expect(first!.historyCount).toBe(replica.history.length);
    expect([first!.upcomingCount, first!.historyCount]).toEqual([12, 3]);
    expect(first!.doctor).toEqual(ownDoctor);
    // The same cards in the same order, joined the same way (the service is on no doctor card).
    const page = replica.upcoming.slice(0, 10);
    expect(first!.upcoming.map((item) => item.key)).toEqual(page.map((item) => item.key));
    expect(first!.upcoming.map((item) => ({ ...item.view, servico: null }))).toEqual(
      page.map((item) => ({ ...item.view, servico: null })),
    );
    expect(first!.upcoming.some((item) => item.view.guia !== null)).toBe(true);
  });

  it('is null for an account without a doctor record (the replica tells it is missing)', async () => {
    const patient = await createPatient(t);
    const client = await signedInClient(t, patient);
    const { data } = await client.auth.getSession();
    expect(await readFirstConsultas(endpoint, data.session!)).toBeNull();
  });
});
