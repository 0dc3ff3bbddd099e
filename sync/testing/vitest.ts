import { afterAll, afterEach, beforeAll } from 'vitest';
import { stopDevices } from './device.ts';
import { startPlatform, type TestPlatform } from './platform.ts';

/**
 * One platform for a test file, started before its first test and stopped after its last; the
 * devices a test opened are stopped after it, newest first. Returns the platform as it will
 * be once started (use it inside tests and hooks, not at the top of the file).
 */
export function platformForFile(opts: Parameters<typeof startPlatform>[0] = {}): TestPlatform {
  let started: TestPlatform | undefined;
  beforeAll(async () => {
    started = await startPlatform(opts);
  });
  afterEach(async () => {
    await stopDevices();
  });
  afterAll(async () => {
    await stopDevices();
    await started?.stop();
  });
  return new Proxy({} as TestPlatform, {
    get(_, key) {
      if (!started) throw new Error('platformForFile(): the platform starts in beforeAll');
      const value: unknown = Reflect.get(started, key);
      return typeof value === 'function' ? (value as () => unknown).bind(started) : value;
    },
  });
}
