import { filter, firstValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { TestPlatform } from '../support/platform.ts';
import {
  Device,
  createDoctor,
  createPatient,
  seedAppointments,
  startSyncPlatform,
  until,
} from './support.ts';

let t: TestPlatform;
let device: Device | undefined;

beforeAll(async () => {
  t = await startSyncPlatform();
});
afterAll(async () => {
  await device?.stop();
  await t?.stop();
});
afterEach(async () => {
  await device?.stop();
  device = undefined;
});

it("[R6] a first sync longer than the server's 1000-row page brings every row, whatever pullBatchSize asks for", async () => {
  const doctor = await createDoctor(t);
  const patients = [await createPatient(t), await createPatient(t)];
  await seedAppointments(t, doctor, patients, 1_100);

  device = new Device(t);
  await device.start(
    { id: await device.signIn(doctor.email), role: 'medico' },
    { pullBatchSize: 5_000 },
  );
  await device.sync.awaitInitialSync();

  // The server cuts every page at 1000 rows; asking for more would make RxDB take the first,
  // cut page for "caught up" and end the first sync with rows missing.
  expect((await firstValueFrom(device.sync.appointments$)).length).toBe(1_100);
  const limits = device.net.requests
    .filter((r) => r.includes('/rest/v1/agendamentos?'))
    .map((r) => Number(new URL(r.slice(r.indexOf(' ') + 1)).searchParams.get('limit')));
  expect(limits.length).toBeGreaterThan(1);
  expect(Math.max(...limits)).toBeLessThanOrEqual(1000);
});

it('[S1] the first sync is reported done only once its last rows are in the replica', async () => {
  const patient = await createPatient(t);
  device = new Device(t);
  const userId = await device.signIn(patient.email);
  // The profile's pull is held back so that its one row is the last page of the first sync.
  const profileAttempted = device.net.block((url) => url.includes('/rest/v1/perfis_usuarios?'));
  const sync = await device.start({ id: userId, role: 'paciente' });
  await profileAttempted;
  await until(sync.status$, (s) => s.initialSync.completed === s.initialSync.total - 1);

  // What a screen reads at the moment the status first says "done".
  const profileWhenDone = firstValueFrom(sync.status$.pipe(filter((s) => s.initialSync.done))).then(
    () => firstValueFrom(sync.profile$),
  );
  void device.net.block(null);

  expect(await profileWhenDone).toMatchObject({ id: userId, email: patient.email });
});
