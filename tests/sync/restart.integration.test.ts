import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  Device,
  createDoctor,
  createPatient,
  rows,
  slot,
  startRestartablePlatform,
  until,
} from './support.ts';

let t: Awaited<ReturnType<typeof startRestartablePlatform>>;
const devices: Device[] = [];

beforeAll(async () => {
  t = await startRestartablePlatform();
});
afterAll(async () => {
  await Promise.all(devices.map((d) => d.stop()));
  await t?.stop();
});

it('[X1] the server restarts in the middle of a sync: nothing lost, nothing duplicated', async () => {
  // Two doctors: a patient may hold two open unpaid bookings per doctor
  // (src/domain/rules/limits.ts). The laptop is the first one's.
  const doctor = await createDoctor(t);
  const other = await createDoctor(t, { name: 'Dr. Outro' });
  const patient = await createPatient(t);
  const phone = new Device(t);
  const laptop = new Device(t);
  devices.push(phone, laptop);
  const patientId = await phone.signIn(patient.email);
  await phone.start({ id: patientId, role: 'paciente' });
  await laptop.start({ id: await laptop.signIn(doctor.email), role: 'medico' });
  await Promise.all([phone.sync.awaitInitialSync(), laptop.sync.awaitInitialSync()]);

  phone.offline();
  const mutationIds: string[] = [];
  for (const n of [1, 3, 5, 7]) {
    const medicoId = n < 5 ? doctor.medicoId : other.medicoId;
    const booked = await phone.sync.book({ medicoId, horarioInicio: slot(n) });
    if (!booked.ok) throw new Error('booking was not queued');
    mutationIds.push(booked.value.mutationId);
    await phone.sync.generateGuide(booked.value.appointmentId);
  }

  // The first booking reaches the server; then the server goes down and comes back while
  // the phone still has seven mutations to send and both replicas are syncing.
  phone.net.afterNextReply(
    (url) => url.includes('/rest/v1/rpc/paciente_agendar'),
    () => t.restart(),
  );
  phone.online();

  const synced = await until(
    phone.sync.appointments$,
    (l) => l.length === 4 && l.every((x) => x.sync.state === 'synced' && x.guia !== null),
  );
  expect(synced.map((x) => x.mutation_id).sort()).toEqual([...mutationIds].sort());

  const server = await rows<{ id: string; mutation_id: string; medico_id: string }>(
    t.admin.from('agendamentos').select('id, mutation_id, medico_id').eq('patient_id', patientId),
  );
  expect(server).toHaveLength(4);
  expect(new Set(server.map((r) => r.mutation_id))).toEqual(new Set(mutationIds));
  const guides = await rows(t.admin.from('guias').select('id').eq('patient_id', patientId));
  expect(guides).toHaveLength(4);

  // The doctor's replica, whose Realtime connection died with the server, catches up too.
  const seen = await until(
    laptop.sync.appointments$,
    (l) => l.length === 2 && l.every((x) => x.guia !== null),
  );
  expect(new Set(seen.map((x) => x.id))).toEqual(
    new Set(server.filter((r) => r.medico_id === doctor.medicoId).map((r) => r.id)),
  );
});
