import { addRxPlugin, createRxDatabase, type RxCollection } from 'rxdb';
import { RxDBDevModePlugin, disableWarnings } from 'rxdb/plugins/dev-mode';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { wrappedValidateAjvStorage } from 'rxdb/plugins/validate-ajv';
import { describe, expect, it } from 'vitest';
import { rowToDoc } from '../../sync/row.ts';
import type { ReplicaDoc } from '../../sync/tables.ts';
import { TABLES } from '../../sync/tables.ts';

// Dev-mode stays on for the whole file once added, so it has a file of its own.
describe('schemas', () => {
  it('[R4] every schema passes RxDB dev-mode checks and stores a server row of its table', async () => {
    disableWarnings();
    addRxPlugin(RxDBDevModePlugin);
    addRxPlugin(RxDBMigrationSchemaPlugin);
    const db = await createRxDatabase({
      name: 'schemacheck',
      storage: wrappedValidateAjvStorage({ storage: getRxStorageMemory() }),
      multiInstance: false,
    });
    try {
      await db.addCollections(
        Object.fromEntries(
          TABLES.map((t) => [
            t.name,
            { schema: t.schema, migrationStrategies: t.migrationStrategies },
          ]),
        ),
      );
      // A row as PostgREST sends it, with a column the replica does not know about.
      const row = {
        id: '00000000-0000-4000-8000-000000000001',
        medico_id: '00000000-0000-4000-8000-000000000002',
        horario_inicio: '2026-11-23T12:00:00+00:00',
        status: 'confirmado',
        _modified: '2026-11-21T10:00:00.123456+00:00',
        _deleted: false,
        column_added_later: 'x',
      };
      const doc = rowToDoc(
        TABLES.find((t) => t.name === 'agenda_ocupada')!,
        row,
      );
      const collection = db.collections.agenda_ocupada as RxCollection<ReplicaDoc>;
      await collection.insert(doc);
      const stored = await collection.findOne(row.id).exec();
      expect(stored?.toJSON()).toMatchObject({
        horario_inicio: '2026-11-23T12:00:00Z',
        server_modified: row._modified,
      });
    } finally {
      await db.close();
    }
  });
});
