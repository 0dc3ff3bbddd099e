import type { SupabaseClient } from '@supabase/supabase-js';
import type { RxStorage } from 'rxdb';
import type { Observable } from 'rxjs';
import type { IndexedDbSource } from './replica-files.ts';
import type { Backoff } from './outbox/queue.ts';
import type { Clock, Timers } from './runtime.ts';
import type { TableSpec } from './tables.ts';

/** Who the replica belongs to; null is a visitor. */
export type SyncUser = { id: string; role: 'paciente' | 'medico' };

/** What `createSyncEngine` takes; sync/SPEC.md's integration guide says what each is for. */
export type EngineOptions = {
  supabase: SupabaseClient;
  /** The Supabase URL the client talks to; part of every replication identifier (R3). */
  serverUrl: string;
  user: SyncUser | null;
  /** Defaults to the browser's IndexedDB; Node passes fake-indexeddb's factory and key range. */
  indexedDB?: IndexedDbSource;
  /**
   * The RxDB storage (default: Dexie on `indexedDB`). Two-tab tests give each tab its own
   * storage object over one IndexedDB: RxDB refuses a second database of the same name and
   * storage in one JavaScript realm, which two browser tabs never share.
   */
  storage?: RxStorage<unknown, unknown>;
  online$?: Observable<boolean>;
  focus$?: Observable<unknown>;
  clock?: Clock;
  timers?: Timers;
  newId?: () => string;
  backoff?: Backoff;
  pullBatchSize?: number;
  overlapMs?: number;
  retryTimeMs?: number;
  multiInstance?: boolean;
  /**
   * The replicated tables and their schemas (default: `TABLES`). Tests pass a table with a
   * bumped schema version to exercise a migration against a replica made by this one (R3, R4).
   */
  tables?: readonly TableSpec[];
};
