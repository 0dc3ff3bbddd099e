/**
 * Rows the server sent outside a pull (an RPC's answer) go into the replica through the
 * collection's pull stream, without moving its checkpoint (R8).
 */
import { filter, firstValueFrom, race, timer, type Observable } from 'rxjs';
import { Temporal } from 'temporal-polyfill';
import type { Replica } from './database.ts';
import type { Live } from './replication.ts';
import type { ServerRow } from './row.ts';
import type { TableName } from './tables.ts';

const STORE_WAIT_MS = 5_000;

/** Two server timestamps (any Postgres spelling), compared as instants. */
function isAtLeast(value: unknown, than: unknown): boolean {
  if (typeof than !== 'string') return true;
  if (typeof value !== 'string') return false;
  return Temporal.Instant.compare(Temporal.Instant.from(value), Temporal.Instant.from(than)) >= 0;
}

/** Resolves when the replica holds `row` (or a newer version of it), or gives up quietly. */
export function storeServerRow(
  e: {
    readonly db: Replica;
    readonly lives: ReadonlyMap<TableName, Live>;
    readonly closed$: Observable<void>;
  },
  table: TableName,
  row: ServerRow | null,
): Promise<unknown> {
  const live = e.lives.get(table);
  const collection = e.db.collections[table];
  if (!row || !live || !collection || typeof row.id !== 'string') return Promise.resolve();
  live.source.push([row]);
  return firstValueFrom(
    race(
      collection
        .findOne(row.id)
        .$.pipe(
          filter((doc) => doc !== null && isAtLeast(doc.get('server_modified'), row._modified)),
        ),
      timer(STORE_WAIT_MS),
      e.closed$,
    ),
    { defaultValue: null },
  );
}
