import { useMemo } from 'react';
import { distinctUntilChanged, map } from 'rxjs';
import type { SyncEngine, SyncStatus, TableName } from '../../../sync/index.ts';
import { useObservable } from '@/session/sync-provider.tsx';

/** What the booking screens read of the sync status for one table. */
export type ReplicaFacts = {
  /** Every table finished its first pull of this session. */
  synced: boolean;
  online: boolean;
  /** The table's last pull failed. */
  failing: boolean;
};

function factsOf(status: SyncStatus, table: TableName): ReplicaFacts {
  return {
    synced: status.initialSync.done,
    online: status.online,
    failing: status.errors.some((e) => e.source === table),
  };
}

const sameFacts = (a: ReplicaFacts, b: ReplicaFacts): boolean =>
  a.synced === b.synced && a.online === b.online && a.failing === b.failing;

/**
 * The sync status as the booking screens use it, null while the engine is not open. The status
 * changes many times during a first sync (each table's start and end, each page pulled, the
 * outbox); read whole, each change re-rendered the page and every grid. These facts change a
 * few times at most, and a status change that leaves them as they were is not passed on, so it
 * renders nothing.
 */
export function useReplicaFacts(engine: SyncEngine | null, table: TableName): ReplicaFacts | null {
  const facts$ = useMemo(
    () =>
      engine?.status$.pipe(
        map((status) => factsOf(status, table)),
        distinctUntilChanged(sameFacts),
      ) ?? null,
    [engine, table],
  );
  return useObservable(facts$, null);
}
