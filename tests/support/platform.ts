/**
 * The platform suites start the local platform through the sync test kit, which owns it
 * (sync/testing/platform.ts); this path stays their short import.
 */
export {
  startTestPlatform,
  testClient,
  type TestPlatform,
  type TestPlatformOptions,
} from '../../sync/testing/platform.ts';
