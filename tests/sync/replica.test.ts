import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { openReplica, type Replica } from '../../sync/database.ts';
import { replicaName } from '../../sync/replica-files.ts';
import { tablesFor } from '../../sync/tables.ts';
import { editStoredDocs } from '../../sync/testing/stored.ts';

const opened: Replica[] = [];

const SERVICO = {
  id: 's0000000-0000-4000-8000-000000000001',
  nome: 'Teleconsulta',
  _deleted: false,
};

/** Gives every collection record of RxDB's internal store a schema hash from another build. */
function rehashStoredSchemas(factory: IDBFactory): Promise<number> {
  return editStoredDocs(factory, '_rxdb_internal', (record) => {
    const data = record['data'] as { schemaHash?: string } | undefined;
    return record['context'] === 'collection' && data?.schemaHash
      ? { ...record, data: { ...data, schemaHash: 'hash-in-another-key-order' } }
      : undefined;
  });
}
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

  it('[R4] a replica stored by an earlier build, its schemas hashed in another key order, opens with its documents', async () => {
    // patches/rxdb+17.6.0.patch orders schema keys by code unit rather than by the browser's
    // collator, so a replica created before it holds other schema hashes for the same schemas.
    const factory = new IDBFactory();
    const open = () =>
      openReplica({
        storage: dexie(factory),
        userId: null,
        role: 'visitor',
        multiInstance: false,
        onConflict: () => undefined,
      });
    const first = await open();
    await first.collections.servicos?.insert(SERVICO);
    await first.close();
    expect(await rehashStoredSchemas(factory)).toBeGreaterThan(0);

    const reopened = await open();
    opened.push(reopened);
    const doc = await reopened.collections.servicos?.findOne(SERVICO.id).exec();
    expect(doc?.get('nome')).toBe(SERVICO.nome);
  });

  it('[R1] each user gets a database of their own', () => {
    expect(replicaName('A1B2')).toBe('saudeja-u-a1b2');
    expect(replicaName(null)).toBe('saudeja-visitor');
    expect(replicaName('u1')).not.toBe(replicaName('u2'));
  });
});
