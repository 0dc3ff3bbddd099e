import { IDBKeyRange } from 'fake-indexeddb';
import type { RxStorage } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { expect, it } from 'vitest';
import type { Device } from './support.ts';
import { createDoctor, createPatient, rows, slot, until } from './support.ts';
import { syncTestBed } from './bed.ts';

const bed = syncTestBed();

/**
 * The storage of a second tab of `first`'s browser: Dexie over the same IndexedDB, under
 * another storage name. RxDB refuses two databases of one name and storage in a JavaScript
 * realm (two browser tabs are two realms); the Dexie instances still share their change
 * events and leader election through the BroadcastChannel named after Dexie and the database.
 */
function secondTabStorage(first: Device): RxStorage<unknown, unknown> {
  const dexie = getRxStorageDexie({ indexedDB: first.indexedDB, IDBKeyRange });
  return Object.create(dexie, { name: { value: 'dexie-second-tab' } }) as RxStorage<
    unknown,
    unknown
  >;
}

const isBooking = (r: string) => r.includes('/rest/v1/rpc/paciente_agendar');

it('[Q1] two tabs queue at once: every mutation is kept, sent once by the leader tab, and shown in both', async () => {
  // Two doctors: a patient may hold two open unpaid bookings per doctor
  // (src/domain/rules/limits.ts).
  const doctor = await createDoctor(bed.t);
  const other = await createDoctor(bed.t, { name: 'Dr. Outro' });
  const patient = await createPatient(bed.t);
  const first = bed.device();
  const second = bed.device();
  const id = await first.signIn(patient.email);
  await second.signIn(patient.email);
  const user = { id, role: 'paciente' as const };
  await first.start(user, { multiInstance: true });
  await first.sync.awaitInitialSync();
  await second.start(user, {
    multiInstance: true,
    indexedDB: { factory: first.indexedDB, keyRange: IDBKeyRange },
    storage: secondTabStorage(first),
  });

  // The laptop loses the connection; the person books in both tabs at the same moment.
  first.offline();
  second.offline();
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
  second.online();
  for (const tab of [first, second]) {
    const synced = await until(
      tab.sync.appointments$,
      (l) => l.length === 4 && l.every((a) => a.sync.state === 'synced'),
    );
    expect(synced.map((a) => a.mutation_id).sort()).toEqual([...mutationIds].sort());
  }
  await until(second.sync.mutations$, (m) => m.length === 0);

  const server = await rows<{ mutation_id: string }>(
    bed.t.admin.from('agendamentos').select('mutation_id').eq('patient_id', id),
  );
  expect(server.map((r) => r.mutation_id).sort()).toEqual([...mutationIds].sort());
  // Only the leader sent, each booking once.
  expect(first.net.requests.filter(isBooking)).toHaveLength(4);
  expect(second.net.requests.filter(isBooking)).toEqual([]);
});
