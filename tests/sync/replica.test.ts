import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { openReplica, replicaName, type Replica } from '../../sync/database.ts';
import { tablesFor } from '../../sync/tables.ts';

const opened: Replica[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) if (!db.closed) await db.close();
});

function dexie(factory = new IDBFactory()) {
  return getRxStorageDexie({ indexedDB: factory, IDBKeyRange });
}

describe('replica', () => {
  it('[R2] a visitor replica holds only the public collections; a user replica all of them', async () => {
    const factory = new IDBFactory();
    const visitor = await openReplica({
      storage: dexie(factory),
      userId: null,
      role: 'visitor',
      multiInstance: false,
      onConflict: () => undefined,
    });
    opened.push(visitor);
    expect(Object.keys(visitor.collections).sort()).toEqual([
      'agenda_medico',
      'agenda_ocupada',
      'medicos',
      'servicos',
    ]);
    const patient = await openReplica({
      storage: dexie(factory),
      userId: 'a1b2c3d4-0000-4000-8000-000000000000',
      role: 'paciente',
      multiInstance: false,
      onConflict: () => undefined,
    });
    opened.push(patient);
    expect(Object.keys(patient.collections).sort()).toEqual(
      tablesFor('paciente')
        .map((t) => t.name)
        .sort(),
    );
  });

  it('[R1] each user gets a database of their own', () => {
    expect(replicaName('A1B2')).toBe('saudeja-u-a1b2');
    expect(replicaName(null)).toBe('saudeja-visitor');
    expect(replicaName('u1')).not.toBe(replicaName('u2'));
  });
});
