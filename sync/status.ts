import { BehaviorSubject, combineLatest, distinctUntilChanged, map, type Observable } from 'rxjs';
import { deepEqual } from 'rxdb/plugins/utils';
import type { OutboxState } from './outbox/types.ts';
import type { Clock } from './runtime.ts';
import type { TableName } from './tables.ts';

export type SyncErrorSource = TableName | 'outbox';

export type SyncError = { source: SyncErrorSource; message: string; at: string };

/** Everything the sync indicator and the first-load progress bar show (S1). */
export type SyncStatus = {
  online: boolean;
  /** Mutations waiting to be sent (or being retried). */
  pendingMutations: number;
  /** Rejected bookings not yet dismissed. */
  rejectedMutations: number;
  /** When every collection last finished a pull (ISO instant), null before the first time. */
  lastSyncedAt: string | null;
  /** First pull of this session, per collection. */
  initialSync: { done: boolean; completed: number; total: number; rowsReceived: number };
  /** Some replication or the outbox is working right now. */
  syncing: boolean;
  /** Current problems, newest last; a collection's error clears on its next good pull. */
  errors: SyncError[];
};

type TableState = { caughtUpAt: string | null; rows: number; active: boolean };

export class StatusTracker {
  private readonly tables = new BehaviorSubject<Record<string, TableState>>({});
  private readonly errors = new BehaviorSubject<SyncError[]>([]);
  private readonly sending = new BehaviorSubject(false);

  constructor(
    private readonly names: readonly TableName[],
    private readonly clock: Clock,
  ) {
    this.tables.next(
      Object.fromEntries(names.map((n) => [n, { caughtUpAt: null, rows: 0, active: false }])),
    );
  }

  page(table: TableName, rows: number, caughtUp: boolean): void {
    this.patch(table, (t) => ({
      ...t,
      rows: t.rows + rows,
      caughtUpAt: caughtUp ? this.clock.now() : t.caughtUpAt,
    }));
    this.clearError(table);
  }

  active(table: TableName, active: boolean): void {
    this.patch(table, (t) => ({ ...t, active }));
  }

  setSending(sending: boolean): void {
    this.sending.next(sending);
  }

  error(source: SyncErrorSource, message: string): void {
    const rest = this.errors.getValue().filter((e) => e.source !== source);
    this.errors.next([...rest, { source, message, at: this.clock.now() }]);
  }

  /** Clears `source`'s error; with `prefix`, only an error whose message starts with it. */
  clearError(source: SyncErrorSource, prefix = ''): void {
    const current = this.errors.getValue();
    const stale = (e: SyncError) => e.source === source && e.message.startsWith(prefix);
    if (current.some(stale)) this.errors.next(current.filter((e) => !stale(e)));
  }

  status$(online$: Observable<boolean>, outbox$: Observable<OutboxState>): Observable<SyncStatus> {
    return combineLatest([online$, outbox$, this.tables, this.errors, this.sending]).pipe(
      map(([online, outbox, tables, errors, sending]) => {
        const states = this.names.map((n) => tables[n] as TableState);
        const caught = states.map((s) => s.caughtUpAt);
        const completed = caught.filter((c) => c !== null).length;
        const pending = outbox.mutations.filter((m) => m.state === 'pending');
        const outboxError = pending.find((m) => m.lastError !== null);
        return {
          online,
          pendingMutations: pending.length,
          rejectedMutations: outbox.mutations.length - pending.length,
          lastSyncedAt:
            completed === caught.length ? ((caught as string[]).sort()[0] ?? null) : null,
          initialSync: {
            done: completed === caught.length,
            completed,
            total: caught.length,
            rowsReceived: states.reduce((sum, s) => sum + s.rows, 0),
          },
          syncing: sending || states.some((s) => s.active),
          errors: outboxError
            ? [
                ...errors,
                {
                  source: 'outbox' as const,
                  message: outboxError.lastError ?? '',
                  at: outboxError.lastErrorAt ?? '',
                },
              ]
            : errors,
        };
      }),
      distinctUntilChanged((a, b) => deepEqual(a, b)),
    );
  }

  private patch(table: TableName, fn: (t: TableState) => TableState): void {
    const all = this.tables.getValue();
    const current = all[table];
    if (current) this.tables.next({ ...all, [table]: fn(current) });
  }
}
