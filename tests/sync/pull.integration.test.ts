import { filter, firstValueFrom } from 'rxjs';
import { expect, it, vi } from 'vitest';
import {
  Device,
  createDoctor,
  createPatient,
  platformForFile,
  seedAppointments,
  until,
} from '../../sync/testing/index.ts';

const t = platformForFile();
let device: Device;

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

it('[R6] a fresh replica asks for its first pages while it opens and takes the full ones; a restarted replica asks nothing from the start', async () => {
  const doctor = await createDoctor(t);
  await seedAppointments(t, doctor, [await createPatient(t)], 1_100);
  device = new Device(t);
  const userId = await device.signIn(doctor.email);
  // Pages from the start: ascending keyset order with no position (R6), not the overlap (R7).
  const fromStart = (table: string) =>
    device.net.requests.filter(
      (r) => r.includes(`/rest/v1/${table}?`) && r.includes('_modified.asc') && !r.includes('or='),
    ).length;

  const sync = await device.start({ id: userId, role: 'medico' });
  await sync.awaitInitialSync();
  expect((await firstValueFrom(sync.appointments$)).length).toBe(1_100);
  // The page asked for while the replica opened was full: RxDB took it, and did not ask again.
  expect(fromStart('agendamentos')).toBe(1);
  // A short one is never taken for "caught up": the pull asks the server again (R6).
  expect(fromStart('agenda_medico')).toBe(2);

  await device.stop();
  device.net.requests.length = 0;
  const again = await device.start({ id: userId, role: 'medico' });
  await again.awaitInitialSync();
  for (const table of ['agendamentos', 'agenda_ocupada', 'agenda_medico', 'medicos']) {
    expect(fromStart(table)).toBe(0);
  }
});

it('[L2] a pull asked for while the first pull is on its last page is made once that pull is stored', async () => {
  const patient = await createPatient(t);
  device = new Device(t);
  const phone = device;
  const userId = await phone.signIn(patient.email);
  const profilePulls = () =>
    phone.net.requests.filter((r) => r.includes('/rest/v1/perfis_usuarios?')).length;
  let askedAfter = Infinity;
  // The profile's first (and last) page is already answered when the resync comes: that page
  // cannot serve it, so the engine pulls again once the first pull is stored.
  phone.net.afterNextReply(
    (url) => url.includes('/rest/v1/perfis_usuarios?') && url.includes('_modified'),
    async () => {
      const engine = await starting;
      askedAfter = profilePulls();
      engine.resync();
    },
  );
  const starting = phone.start({ id: userId, role: 'paciente' });
  await (await starting).awaitInitialSync();
  await vi.waitFor(() => expect(profilePulls()).toBeGreaterThan(askedAfter), { timeout: 5_000 });
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

it('[S1] a first pull whose reply lands just as the connection drops is not reported done: its rows come with the next connection', async () => {
  const patient = await createPatient(t);
  device = new Device(t);
  const phone = device;
  const userId = await phone.signIn(patient.email);
  // The doctors' page comes back from the server only after the phone went offline (and the
  // engine paused its replications), as a reply on its way when a clinic's Wi-Fi drops.
  let dropped = false;
  phone.net.afterNextReply(
    (url) => url.includes('/rest/v1/medicos?') && url.includes('_modified'),
    async () => {
      phone.offline();
      await new Promise((resolve) => setTimeout(resolve, 0));
      dropped = true;
    },
  );
  const sync = await phone.start({ id: userId, role: 'paciente' });
  const settled = await until(sync.status$, (s) => dropped && !s.online && !s.syncing);
  const doctorsOffline = await firstValueFrom(sync.doctors$);
  // RxDB dropped the page it received paused: the replica is empty, and says so — neither
  // "synced" now nor "pulled" (which survives a restart).
  expect(doctorsOffline).toEqual([]);
  expect(settled.initialSync.done).toBe(false);
  expect(await firstValueFrom(sync.pulledOnce$('medicos'))).toBe(false);

  phone.online();
  const doctorsWhenDone = until(sync.status$, (s) => s.initialSync.done).then(() =>
    firstValueFrom(sync.doctors$),
  );
  expect((await doctorsWhenDone).length).toBeGreaterThan(0);
  expect(await firstValueFrom(sync.pulledOnce$('medicos'))).toBe(true);
});

it('[S2] a collection counts as pulled only after its first pull is stored, and stays so offline after a restart', async () => {
  const doctor = await createDoctor(t);
  device = new Device(t);
  const userId = await device.signIn(doctor.email);
  const agendaAttempted = device.net.block((url) => url.includes('/rest/v1/agenda_medico?'));
  const sync = await device.start({ id: userId, role: 'medico' });
  await agendaAttempted;
  // Everything else is in; the held collection is empty and says it is not loaded.
  await until(sync.status$, (s) => s.initialSync.completed === s.initialSync.total - 1);
  expect(await firstValueFrom(sync.pulledOnce$('medicos'))).toBe(true);
  expect(await firstValueFrom(sync.pulledOnce$('agenda_medico'))).toBe(false);
  expect(await firstValueFrom(sync.availability$(doctor.medicoId))).toEqual([]);

  // Once it reports pulled, the doctor's seven blocks are already readable.
  const blocksWhenPulled = until(sync.pulledOnce$('agenda_medico'), Boolean).then(() =>
    firstValueFrom(sync.availability$(doctor.medicoId)),
  );
  void device.net.block(null);
  expect(await blocksWhenPulled).toHaveLength(7);

  // Restarted with no network: nothing is pulled this session, the stored pull still counts.
  await device.stop();
  device.offline();
  const again = await device.start({ id: userId, role: 'medico' });
  expect(await firstValueFrom(again.pulledOnce$('agenda_medico'))).toBe(true);
  expect(await firstValueFrom(again.availability$(doctor.medicoId))).toHaveLength(7);
  expect((await firstValueFrom(again.status$)).initialSync.done).toBe(false);
});

it('[S2] a fresh device that has never pulled a collection does not count it as pulled while offline', async () => {
  const doctor = await createDoctor(t);
  device = new Device(t);
  const userId = await device.signIn(doctor.email);
  device.offline();
  const sync = await device.start({ id: userId, role: 'medico' });
  expect(await firstValueFrom(sync.pulledOnce$('agenda_medico'))).toBe(false);
  device.online();
  await until(sync.pulledOnce$('agenda_medico'), Boolean);
  expect(await firstValueFrom(sync.availability$(doctor.medicoId))).toHaveLength(7);
});
