import { expect, it } from 'vitest';
import {
  createDoctor,
  device,
  expectExactlyOnce,
  rows,
  settled,
  slot,
  platformForFile,
} from '../../sync/testing/index.ts';

const t = platformForFile();

it('[X1] the server restarts in the middle of a sync: nothing lost, nothing duplicated', async () => {
  // Two doctors: a patient may hold two open unpaid bookings per doctor
  // (src/domain/rules/limits.ts). The laptop is the first one's.
  const doctor = await createDoctor(t);
  const other = await createDoctor(t, { name: 'Dr. Outro' });
  const phone = await device(t, { role: 'paciente' });
  const laptop = await device(t, { as: doctor });

  phone.offline();
  const mutationIds: string[] = [];
  for (const n of [1, 3, 5, 7]) {
    const medicoId = n < 5 ? doctor.medicoId : other.medicoId;
    const booked = await phone.sync.book({ medicoId, horarioInicio: slot(n) });
    if (!booked.ok) throw new Error('booking was not queued');
    const guide = await phone.sync.generateGuide(booked.value.appointmentId);
    if (!guide.ok) throw new Error('guide was not queued');
    mutationIds.push(booked.value.mutationId, guide.value.mutationId);
  }

  // The first booking reaches the server; then the server goes down and comes back while
  // the phone still has seven mutations to send and both replicas are syncing. The doctor's
  // Realtime connection dies with the server.
  phone.net.afterNextReply(
    (url) => url.includes('/rest/v1/rpc/paciente_agendar'),
    () => t.restart(),
  );
  phone.online();
  await settled(phone, laptop);

  for (const id of mutationIds) await expectExactlyOnce(t, id);
  const server = await rows(
    t.admin.from('agendamentos').select('id').eq('patient_id', phone.person?.id),
  );
  expect(server).toHaveLength(4);
  const guides = await rows(t.admin.from('guias').select('id').eq('patient_id', phone.person?.id));
  expect(guides).toHaveLength(4);
});
