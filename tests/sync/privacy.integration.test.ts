import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { openReplica } from '../../sync/database.ts';
import type { Device } from './support.ts';
import { createDoctor, rows, slot, until } from './support.ts';
import { syncTestBed } from './bed.ts';

const bed = syncTestBed();

/** Everything stored in a closed replica, collection by collection. */
async function replicaContents(device: Device, id: string) {
  const db = await openReplica({
    storage: getRxStorageDexie({ indexedDB: device.indexedDB, IDBKeyRange }),
    userId: id,
    role: 'paciente',
    multiInstance: false,
    onConflict: () => undefined,
  });
  try {
    const entries = await Promise.all(
      Object.entries(db.collections).map(async ([name, c]) => [
        name,
        (await c.find().exec()).map((d) => d.toJSON() as Record<string, unknown>),
      ]),
    );
    return Object.fromEntries(entries) as Record<string, Record<string, unknown>[]>;
  } finally {
    await db.close();
  }
}

describe('privacy', () => {
  it("[R1][P1] a patient's replica holds only that patient's rows; own profile edits made offline reach the server", async () => {
    const doctor = await createDoctor(bed.t);
    const a = await bed.patientDevice();
    const b = await bed.patientDevice();
    for (const [who, n] of [
      [a, 1],
      [b, 3],
    ] as const) {
      const booked = await who.device.sync.book({
        medicoId: doctor.medicoId,
        horarioInicio: slot(n),
      });
      if (!booked.ok) throw new Error('booking was not queued');
      await who.device.sync.generateGuide(booked.value.appointmentId);
    }
    await until(
      a.device.sync.appointments$,
      (l) => l[0]?.guia !== null && l[0]?.sync.state === 'synced',
    );
    await until(
      b.device.sync.appointments$,
      (l) => l[0]?.guia !== null && l[0]?.sync.state === 'synced',
    );
    // Both bookings are public as taken slots, with no patient data.
    await until(
      a.device.sync.occupiedSlots$(doctor.medicoId),
      (s) => s.filter((x) => !x.pending).length === 2,
    );

    a.device.offline();
    expect((await a.device.sync.updateProfile({ whatsapp: '(11) 98888-7777' })).ok).toBe(true);
    a.device.online();
    await a.device.sync.awaitInSync();
    const [profile] = await rows<{ whatsapp: string }>(
      bed.t.admin.from('perfis_usuarios').select('whatsapp').eq('id', a.id),
    );
    expect(profile?.whatsapp).toBe('(11) 98888-7777');

    await a.device.stop();
    const stored = await replicaContents(a.device, a.id);
    expect(stored.agendamentos!.length).toBe(1);
    expect(stored.agendamentos!.every((r) => r.patient_id === a.id)).toBe(true);
    expect(stored.guias!.map((g) => g.agendamento_id)).toEqual(
      stored.agendamentos!.map((r) => r.id),
    );
    expect(stored.perfis_usuarios!.map((p) => p.id)).toEqual([a.id]);
    expect(stored.agenda_ocupada!.filter((s) => s.medico_id === doctor.medicoId)).toHaveLength(2);
    const everything = JSON.stringify(stored);
    expect(everything).not.toContain(b.id);
  });

  it("[R1] signing out deletes the user's replica, queued mutations included", async () => {
    const doctor = await createDoctor(bed.t);
    const { device, id } = await bed.patientDevice();
    device.offline();
    await device.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(5) });
    const names = async () => (await device.indexedDB.databases()).map((d) => d.name ?? '');
    expect((await names()).some((n) => n.includes(id))).toBe(true);

    await device.sync.signOut();
    device.engine = null;
    expect((await names()).filter((n) => n.includes(id))).toEqual([]);
  });
});
