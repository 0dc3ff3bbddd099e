import { describe, expect, it } from 'vitest';
import { IDBKeyRange } from 'fake-indexeddb';
import type { RxStorage } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import {
  ANA,
  Device,
  createPatient,
  platformForFile,
  settled,
  slot,
  until,
} from '../../sync/testing/index.ts';

/**
 * A full disk, as IndexedDB reports it: every write of the storage fails with a real
 * `QuotaExceededError` DOMException while `full` is set. Reads and earlier data are untouched,
 * as when a browser's quota runs out.
 */
function storageThatFills(device: Device) {
  const state = { full: false };
  const base: RxStorage<unknown, unknown> = getRxStorageDexie({
    indexedDB: device.indexedDB,
    IDBKeyRange,
  });
  const storage: RxStorage<unknown, unknown> = {
    name: base.name,
    rxdbVersion: base.rxdbVersion,
    async createStorageInstance(params) {
      const instance = await base.createStorageInstance(params);
      const bulkWrite = instance.bulkWrite.bind(instance);
      instance.bulkWrite = (rows, context) =>
        state.full
          ? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'))
          : bulkWrite(rows, context);
      return instance;
    },
  };
  return { storage, state };
}

const t = platformForFile();

describe('a full disk', () => {
  it('[A3] turns a write into storage-full and keeps everything saved before', async () => {
    const patient = await createPatient(t);
    const device = new Device(t);
    await device.signIn(patient.email);
    const { storage, state } = storageThatFills(device);
    const user = { id: patient.id, role: 'paciente' as const };
    const engine = await device.start(user, { storage });
    await engine.awaitInitialSync();
    device.offline();

    const first = await engine.book({ medicoId: ANA, horarioInicio: slot(2) });
    expect(first.ok).toBe(true);
    const profileBefore = await until(engine.profile$, (p) => p !== null);

    state.full = true;
    expect(await engine.book({ medicoId: ANA, horarioInicio: slot(4) })).toEqual({
      ok: false,
      error: 'storage-full',
    });
    expect(await engine.updateProfile({ full_name: 'Outro Nome' })).toEqual({
      ok: false,
      error: 'storage-full',
    });
    expect(engine.pendingCount()).toBe(1);

    // Space freed: the engine goes on, and after a restart everything saved is still there.
    state.full = false;
    const third = await engine.book({ medicoId: ANA, horarioInicio: slot(6) });
    expect(third.ok).toBe(true);
    await device.stop();
    const reopened = await device.start(user, { storage: storageThatFills(device).storage });
    const queued = await until(reopened.mutations$, (ms) => ms.length >= 2);
    expect(queued.map((m) => m.args)).toEqual([
      { medicoId: ANA, horarioInicio: slot(2) },
      { medicoId: ANA, horarioInicio: slot(6) },
    ]);
    expect((await until(reopened.profile$, (p) => p !== null))?.full_name).toBe(
      profileBefore?.full_name,
    );

    device.online();
    await settled(device);
    const { data } = await t.admin
      .from('agendamentos')
      .select('horario_inicio')
      .eq('patient_id', patient.id);
    expect(data).toHaveLength(2);
  }, 60_000);
});
