/**
 * The screens' integration tests in src/ reach the sync test kit through this path; new tests
 * import sync/testing/index.ts (docs/testing-sync.md).
 */
export {
  ANA,
  Device,
  Network,
  PASSWORD,
  ZONE,
  cpfFor,
  createDoctor,
  createPatient,
  rows,
  signedInClient,
  slot,
  startPlatform as startSyncPlatform,
  until,
  type DoctorFixture,
} from '../../sync/testing/index.ts';
