/**
 * The sync test kit: the real platform in this process, devices with their own IndexedDB
 * (fake-indexeddb), unmodified supabase-js client and sync engine, a network per device that
 * fails on demand, and one way to wait — `settled()`. The walk-through is docs/testing-sync.md.
 *
 * Tests and benchmarks only: src/ may not import it (eslint.config.js), and the app build never
 * reaches it (tsconfig.app.json leaves it out).
 */
import type { SyncEngineOptions } from '../index.ts';
import { Device } from './device.ts';
import { createDoctor, createPatient, type Person } from './people.ts';
import type { TestPlatform } from './platform.ts';

export { Device, until, stopDevices } from './device.ts';
export { Network, type Match } from './network.ts';
export { chaos, type ChaosOptions, type ChaosReport } from './chaos.ts';
export { editStoredDocs } from './stored.ts';
export {
  settled,
  unsettled,
  replicaDiff,
  expectReplicaEqualsServer,
  expectExactlyOnce,
  type SettledOptions,
} from './settled.ts';
export {
  startPlatform,
  startTestPlatform,
  testClient,
  SEED_FILE,
  type TestPlatform,
  type TestPlatformOptions,
} from './platform.ts';
export {
  ANA,
  PASSWORD,
  ZONE,
  cpfFor,
  createDoctor,
  createPatient,
  rows,
  seedAppointments,
  signedInClient,
  slot,
  type DoctorFixture,
  type Person,
} from './people.ts';
export { platformForFile } from './vitest.ts';

export type DeviceSpec =
  /** A fresh patient or doctor (a doctor gets a `medicos` row and an all-week grid). */
  | { role: 'paciente' | 'medico' }
  /** Someone who already exists: a second device of the same person. */
  | { as: Person }
  /** Nobody signed in. */
  | { role: 'visitor' };

export type DeviceOptions = {
  /** Engine options on top of the kit's (short backoff and retry, `multiInstance` as the app). */
  engine?: Partial<SyncEngineOptions>;
  /** Start without a connection (nothing is pulled; the replica opens as stored). */
  offline?: boolean;
};

/** A device of the kit, with the person it is signed in as (null for a visitor). */
export type KitDevice<P extends Person | null = Person> = Device & { person: P };

/**
 * A phone or laptop signed in as a fresh patient or doctor (or `as` someone), its engine
 * started as the app starts it and through its first sync (unless `offline`).
 */
export async function device(
  t: TestPlatform,
  spec: { role: 'paciente' | 'medico' } | { as: Person },
  opts?: DeviceOptions,
): Promise<KitDevice>;
export async function device(
  t: TestPlatform,
  spec: { role: 'visitor' },
  opts?: DeviceOptions,
): Promise<KitDevice<null>>;
export async function device(
  t: TestPlatform,
  spec: DeviceSpec,
  opts: DeviceOptions = {},
): Promise<KitDevice<Person | null>> {
  const person: Person | null =
    'as' in spec
      ? spec.as
      : spec.role === 'paciente'
        ? await createPatient(t)
        : spec.role === 'medico'
          ? await createDoctor(t)
          : null;
  const phone = Object.assign(new Device(t), { person });
  if (person) await phone.signIn(person.email);
  if (opts.offline) phone.offline();
  await phone.start(person && { id: person.id, role: person.role }, {
    multiInstance: true,
    ...opts.engine,
  });
  if (!opts.offline) await phone.sync.awaitInitialSync();
  return phone;
}
