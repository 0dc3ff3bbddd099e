import { firstValueFrom } from 'rxjs';
import { expect, it } from 'vitest';
import type { PerfilDoc, SyncEvent } from '../../sync/index.ts';
import { perfisSchema } from '../../sync/schemas.ts';
import { TABLES, type TableSpec } from '../../sync/tables.ts';
import { createDoctor, device, settled, slot, platformForFile } from '../../sync/testing/index.ts';

const t = platformForFile();

/**
 * The next version of the profiles collection, as an app update would ship it: it keeps the
 * server's `created_at`, which the current version drops. Old documents get it as null until the re-pull.
 */
const current = TABLES.find((s) => s.name === 'perfis_usuarios') as TableSpec;
const next = perfisSchema.version + 1;
const profilesV1: TableSpec = {
  ...current,
  schema: {
    ...perfisSchema,
    version: next,
    properties: { ...perfisSchema.properties, created_at: { type: ['string', 'null'] } },
  } as unknown as TableSpec['schema'],
  instants: ['created_at'],
  migrationStrategies: {
    ...current.migrationStrategies,
    [next]: (old: PerfilDoc) => ({ ...old, created_at: null }),
  },
};
const updatedTables = TABLES.map((s) => (s.name === profilesV1.name ? profilesV1 : s));

type Profile = PerfilDoc & { created_at?: string | null };

it('[R3][R4] a schema bump migrates the stored documents, re-pulls that collection from scratch and leaves the rest of the replica as it was', async () => {
  const doctor = await createDoctor(t);
  const phone = await device(t, { role: 'paciente' });
  const id = phone.person.id;
  const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(2) });
  if (!booked.ok) throw new Error('booking was not queued');
  await settled(phone);
  const profile = (await firstValueFrom(phone.sync.profile$)) as Profile;
  expect(profile.created_at).toBeUndefined();

  // The app is updated while the phone is offline, with a booking still in the queue.
  phone.offline();
  const queued = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(6) });
  if (!queued.ok) throw new Error('booking was not queued');
  await phone.reload({ tables: updatedTables });
  const events: SyncEvent[] = [];
  phone.sync.events$.subscribe((e) => events.push(e));
  // Offline, before any pull: the old document, through the migration strategy.
  expect(await firstValueFrom(phone.sync.profile$)).toEqual({ ...profile, created_at: null });
  const offline = await firstValueFrom(phone.sync.appointments$);
  expect(offline.map((a) => [a.mutation_id, a.sync.state])).toEqual(
    expect.arrayContaining([
      [booked.value.mutationId, 'synced'],
      [queued.value.mutationId, 'pending'],
    ]),
  );

  phone.net.requests.length = 0;
  phone.online();
  // Settled against the new schema: the profile's created_at is the server's.
  await settled(phone);
  // A new replication identifier: the migrated collection is pulled again from the start...
  const pulled = (await firstValueFrom(phone.sync.profile$)) as Profile;
  // The queued booking, sent on reconnect, touches the profile (so the doctor's replica pulls it):
  // only its server stamp may have moved.
  const { server_modified: _stamp, ...content } = profile;
  expect(pulled).toMatchObject(content);
  expect(pulled.created_at).toMatch(/Z$/);
  const synced = await firstValueFrom(phone.sync.appointments$);
  expect(synced.map((a) => [a.mutation_id, a.sync.state]).sort()).toEqual(
    [
      [booked.value.mutationId, 'synced'],
      [queued.value.mutationId, 'synced'],
    ].sort(),
  );
  const firstPull = (table: string) =>
    phone.net.requests.find((r) => r.startsWith(`GET ${t.url}/rest/v1/${table}?`)) ?? '';
  expect(firstPull('perfis_usuarios')).not.toContain('or=');
  // ...while the others resume from their checkpoints (these had rows at the first pull).
  for (const table of ['servicos', 'medicos', 'agenda_medico']) {
    expect(firstPull(table)).toContain('or=');
  }
  // The re-presented profile is not written back to the server, and nothing goes wrong: the one
  // event is the queued booking being applied (O7).
  expect(
    phone.net.requests.filter(
      (r) => !r.startsWith('GET') && r.includes('/rest/v1/perfis_usuarios'),
    ),
  ).toEqual([]);
  expect(events.map((e) => e.type)).toEqual(['mutation-applied']);

  // Sign-out leaves neither schema version's files behind (R1).
  await phone.sync.signOut();
  phone.engine = null;
  const left = (await phone.indexedDB.databases()).map((d) => d.name ?? '');
  expect(left.filter((name) => name.includes(id.toLowerCase()))).toEqual([]);
});
