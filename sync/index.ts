/**
 * The sync engine: the app's only way to read and write data (docs/architecture.md §1). Screens read
 * the local replica through the observables here; writes are local first and synced. The
 * rules are in sync/SPEC.md; the integration guide is at its top. This file only names what
 * the app may use; each part lives in its own module (sync/SPEC.md, "Modules").
 */
export { createSyncEngine, type SyncEngine } from './sync-engine.ts';
export { deleteReplica, type Replica } from './database.ts';
export type { EngineOptions as SyncEngineOptions, SyncUser } from './engine-options.ts';
export type { SyncEvent } from './sync-events.ts';
export type { WriteError, WriteResult } from './write-result.ts';
export type { SyncStatus, SyncError } from './status.ts';
export type { ReplicaDoc, TableName } from './tables.ts';
export type { AppointmentView } from './appointment-view.ts';
export type { OccupiedSlot, SyncMark } from './outbox/overlay.ts';
export type { Mutation, MutationKind, Rejection } from './outbox/types.ts';
export {
  MUTATIONS,
  outcomeToast,
  type Action,
  type ActorRole,
  type OutcomeToast,
} from './outbox/mutations.ts';
export type {
  AvailabilityBlockInput,
  DoctorProfilePatch,
  ProfilePatch,
} from '../src/domain/schemas/sync-inputs.ts';
export type { ConflictReport, DroppedField } from './conflict.ts';
export type { WriteRejection } from './push.ts';
export type { Clock, Timers } from './runtime.ts';
export type {
  AgendaMedicoDoc,
  AgendaOcupadaDoc,
  AgendamentoDoc,
  GuiaDoc,
  MedicoDoc,
  PerfilDoc,
  ServicoDoc,
} from './schemas.ts';
