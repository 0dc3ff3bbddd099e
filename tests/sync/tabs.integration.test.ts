import { firstValueFrom } from 'rxjs';
import { expect, it } from 'vitest';
import {
  createDoctor,
  device,
  expectExactlyOnce,
  settled,
  slot,
  until,
  platformForFile,
} from '../../sync/testing/index.ts';

const t = platformForFile();

const isBooking = (r: string) => r.includes('/rest/v1/rpc/paciente_agendar');

it('[Q1] two tabs queue at once: every mutation is kept, sent once by the leader tab, and shown in both', async () => {
  // Two doctors: a patient may hold two open unpaid bookings per doctor
  // (src/domain/rules/limits.ts).
  const doctor = await createDoctor(t);
  const other = await createDoctor(t, { name: 'Dr. Outro' });
  const first = await device(t, { role: 'paciente' });
  const second = await first.tab();

  // The laptop loses the connection; the person books in both tabs at the same moment.
  first.offline();
  const booked = await Promise.all([
    first.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(1) }),
    second.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(3) }),
    first.sync.book({ medicoId: other.medicoId, horarioInicio: slot(5) }),
    second.sync.book({ medicoId: other.medicoId, horarioInicio: slot(7) }),
  ]);
  const mutationIds = booked.map((b) => {
    if (!b.ok) throw new Error('booking was not queued');
    return b.value.mutationId;
  });
  for (const tab of [first, second]) {
    const queue = await until(tab.sync.mutations$, (m) => m.length === 4);
    expect(queue.map((m) => m.id).sort()).toEqual([...mutationIds].sort());
    expect(new Set(queue.map((m) => m.seq)).size).toBe(4);
  }

  first.online();
  await settled(first, second);
  for (const tab of [first, second]) {
    const shown = await firstValueFrom(tab.sync.appointments$);
    expect(
      shown
        .filter((a) => a.sync.state === 'synced')
        .map((a) => a.mutation_id)
        .sort(),
    ).toEqual([...mutationIds].sort());
  }
  for (const id of mutationIds) await expectExactlyOnce(t, id);
  // Only the leader sent, each booking once.
  expect(first.net.requests.filter(isBooking)).toHaveLength(4);
  expect(second.net.requests.filter(isBooking)).toEqual([]);
});
