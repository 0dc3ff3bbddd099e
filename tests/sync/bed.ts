import { afterAll, afterEach, beforeAll } from 'vitest';
import type { TestPlatform } from '../support/platform.ts';
import { Device, createPatient, startSyncPlatform } from './support.ts';

/**
 * A sync integration file's fixture: one seeded platform for the file and the devices its tests
 * open, with the vitest hooks that start and stop them. Devices stop after each test, newest
 * first (a second tab before the leader tab it would otherwise hand leadership to).
 * Kept apart from support.ts, which benchmarks import outside vitest.
 */
export function syncTestBed() {
  let platform: TestPlatform | undefined;
  const devices: Device[] = [];
  beforeAll(async () => {
    platform = await startSyncPlatform();
  });
  afterEach(async () => {
    for (const device of devices.splice(0).reverse()) await device.stop();
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const bed = {
    get t(): TestPlatform {
      if (!platform) throw new Error('the sync platform starts in beforeAll');
      return platform;
    },
    /** A device (not signed in) that is stopped after the test. */
    device(): Device {
      const device = new Device(bed.t);
      devices.push(device);
      return device;
    },
    /** A device signed in as `user`, its replica through the first sync. */
    async signedIn(
      user: { email: string },
      role: 'paciente' | 'medico',
    ): Promise<{ device: Device; id: string }> {
      const device = bed.device();
      const id = await device.signIn(user.email);
      await device.start({ id, role });
      await device.sync.awaitInitialSync();
      return { device, id };
    },
    /** A new patient's signed-in, synced device. */
    async patientDevice(): Promise<{ device: Device; id: string }> {
      return bed.signedIn(await createPatient(bed.t), 'paciente');
    },
  };
  return bed;
}
