/**
 * One collection's replication: RxDB's replicateRxCollection fed by our pull (and our push
 * where the role writes the table), and where its first pull stands (S1, S2).
 */
import type { RealtimeChannel } from '@supabase/supabase-js';
import type { RxCollection } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import type { Subject, Subscription } from 'rxjs';
import type { Replica } from './database.ts';
import type { EngineOptions } from './engine-options.ts';
import { replicationErrorMessage } from './errors.ts';
import { newFirstPull, pulledMarker, type FirstPull } from './first-pull.ts';
import {
  createPullSource,
  pullBatchSize,
  type Checkpoint,
  type PageAhead,
  type PullSource,
} from './pull.ts';
import { createPushHandler } from './push.ts';
import type { Clock } from './runtime.ts';
import type { Session } from './session.ts';
import type { StatusTracker } from './status.ts';
import type { SyncEvent } from './sync-events.ts';
import { pushesFor, type ReplicaDoc, type Role, type TableSpec } from './tables.ts';

/** A collection's running replication, its pull source and its Realtime channel. */
export type Live = {
  spec: TableSpec;
  source: PullSource;
  replication: RxReplicationState<ReplicaDoc, Checkpoint>;
  channel: RealtimeChannel | null;
  first: FirstPull;
};

/** What a replication reports to and reads from the engine around it. */
export type ReplicationContext = {
  readonly opts: EngineOptions;
  readonly clock: Clock;
  readonly db: Replica;
  readonly status: StatusTracker;
  readonly events$: Subject<SyncEvent>;
  readonly subs: Subscription[];
  readonly session: Session;
};

/** One collection's replication (pull, Realtime-fed stream, push where allowed), not started. */
export function prepareReplication(
  e: ReplicationContext,
  spec: TableSpec,
  role: Role,
  firstPage: PageAhead | undefined,
): Live {
  const { opts } = e;
  const collection = e.db.collections[spec.name] as RxCollection<ReplicaDoc>;
  const identifier = `${spec.name}-v${spec.schema.version}:${opts.user?.id ?? 'visitor'}@${opts.serverUrl}`;
  const first = newFirstPull();
  const source = createPullSource({
    client: opts.supabase,
    spec,
    overlapMs: opts.overlapMs ?? 2_000,
    onPage: ({ rows, caughtUp }) => {
      if (caughtUp) first.caughtUpReturned = true;
      e.status.page(spec.name, rows, caughtUp && first.stored);
    },
    session: e.session,
    firstPage,
  });
  const replication = replicateRxCollection<ReplicaDoc, Checkpoint>({
    collection,
    replicationIdentifier: identifier,
    live: true,
    autoStart: false,
    retryTime: opts.retryTimeMs ?? 5_000,
    waitForLeadership: opts.multiInstance ?? false,
    pull: {
      handler: (checkpoint, batchSize) => {
        // A page asked for from now on is a pull after any request made so far (requestPull).
        first.pullWanted = false;
        return source.handler(checkpoint, batchSize);
      },
      stream$: source.stream$,
      batchSize: pullBatchSize(opts.pullBatchSize),
    },
    ...(pushesFor(spec, role)
      ? {
          push: {
            batchSize: 10,
            handler: createPushHandler(
              opts.supabase,
              spec,
              (rejection) => e.events$.next({ type: 'write-rejected', rejection }),
              e.session,
            ),
          },
        }
      : {}),
  });
  const live: Live = { spec, source, replication, channel: null, first };
  e.subs.push(
    replication.error$.subscribe((err) => e.status.error(spec.name, replicationErrorMessage(err))),
    replication.active$.subscribe((active) => {
      e.status.active(spec.name, active);
      if (!active) noteFirstStore(e, live);
    }),
  );
  return live;
}

/**
 * A page is reported when it arrives, before RxDB stores it, so "first sync done" waits for the
 * pass that returned a caught-up page to end with the replication running: RxDB ends a pull
 * that finds its replication paused (goOffline) as if the server had nothing more, dropping a
 * page it already fetched, and still calls that its initial replication. Counting that would
 * show "synced" beside an empty replica, on this page and, through the marker, after restarts.
 */
function noteFirstStore(e: ReplicationContext, live: Live): void {
  const { first } = live;
  if (first.stored || !first.caughtUpReturned || live.replication.isStoppedOrPaused()) return;
  first.stored = true;
  first.markStored();
  e.status.page(live.spec.name, 0, true);
  // Kept in the replica itself, so it survives restarts and goes with it on sign-out. Written
  // once: a replica that has it (every start after the first) has nothing to write, and a
  // write would wake every reader of the replica's local documents (the outbox's among them).
  const marker = pulledMarker(live.spec);
  e.db
    .getLocal(marker)
    .then((stored) => (stored ? undefined : e.db.upsertLocal(marker, { at: e.clock.now() })))
    .catch(() => undefined);
  if (first.pullWanted) requestPull(live);
}

/**
 * Asks a collection to pull now (L2). RxDB 17's downstream drops a RESYNC queued in the same
 * batch right behind documents (Realtime rows, an RPC result just stored): addNewTask shifts
 * it off and breaks without running it. A second RESYNC survives that; when the first one
 * runs, the second is older than the pull it started and RxDB skips it, so no extra request.
 *
 * During this session's first pull the request waits: that pull asks the server again anyway
 * (every pass ends with a fresh short page, R6), and if it asks no page after the request, the
 * pull is made once the first one is stored (noteFirstStore). RxDB's downstream would skip such
 * a RESYNC the same way, but its upstream would not: every RESYNC makes the upstream read all
 * documents changed since its checkpoint, 100 at a time with a meta read and a checkpoint write
 * per batch, even for a pull-only collection, and during a first sync it chases the pull's writes
 * until they stop. The Realtime channels subscribe while the first pages are stored, so a
 * doctor's first sync spent seconds reading back the 10,000 rows it had just written, and was
 * counted done only after that (RxDB's active$ includes the upstream; bench/sync).
 */
export function requestPull(live: Live): void {
  if (!live.first.stored) {
    live.first.pullWanted = true;
    return;
  }
  live.first.pullWanted = false;
  live.replication.reSync();
  live.replication.reSync();
}
