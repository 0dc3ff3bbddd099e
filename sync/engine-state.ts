import type { BehaviorSubject, Subject, Subscription } from 'rxjs';
import type { Replica } from './database.ts';
import type { EngineOptions } from './engine-options.ts';
import type { Outbox } from './outbox/outbox.ts';
import type { Live } from './replication.ts';
import type { Clock } from './runtime.ts';
import type { Session } from './session.ts';
import type { StatusTracker } from './status.ts';
import type { SyncEvent } from './sync-events.ts';
import type { TableName, TableSpec } from './tables.ts';

/** A running engine's state; the functions of the engine's modules take it explicitly. */
export type Engine = {
  readonly opts: EngineOptions;
  readonly clock: Clock;
  readonly db: Replica;
  readonly specs: readonly TableSpec[];
  readonly status: StatusTracker;
  readonly lives: Map<TableName, Live>;
  readonly online: BehaviorSubject<boolean>;
  readonly events$: Subject<SyncEvent>;
  readonly closed$: Subject<void>;
  readonly subs: Subscription[];
  readonly session: Session;
  /** Online/offline switches, one after another. */
  transitions: Promise<void>;
};

/** An engine once its outbox is open. */
export type Running = Engine & { readonly outbox: Outbox };
