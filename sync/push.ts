import type { SupabaseClient } from '@supabase/supabase-js';
import type { RxReplicationWriteToMasterRow, WithDeleted } from 'rxdb';
import { deepEqual } from 'rxdb/plugins/utils';
import { Temporal } from 'temporal-polyfill';
import {
  TransientSyncError,
  isTransient,
  refusalOf,
  toFailure,
  type ServerFailure,
} from './errors.ts';
import { rowToDoc, type ServerRow } from './row.ts';
import { replicationDeadline, sendAs, type Session } from './session.ts';
import type { ReplicaDoc, TableSpec } from './tables.ts';

/** A direct write the server refused for good (RLS, a check constraint): P4. */
export type WriteRejection = {
  table: TableSpec['name'];
  id: string;
  reason: string;
  message: string;
};

/** Two server `_modified` values, whichever way Postgres or Realtime spelled them. */
function sameInstant(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  return Temporal.Instant.compare(Temporal.Instant.from(a), Temporal.Instant.from(b)) === 0;
}

type Outcome = { kind: 'ok'; row: ServerRow | null } | { kind: 'failed'; failure: ServerFailure };

/**
 * Push handler for the documents a user owns (P1–P4). Each row is written on its own:
 * - a new document is inserted;
 * - a changed one is PATCHed with only its changed writable columns, on the condition that
 *   the server row still carries the `_modified` the edit started from (P2); zero rows
 *   updated means someone else wrote first, and the server row goes back to RxDB as a
 *   conflict, resolved by the collection's written rule (P3);
 * - the server's row after a successful write is returned too, so the replica learns the
 *   new `_modified` at once (the conflict rule sees no difference and keeps it as is);
 * - a permanent refusal returns the server's current row (or a deletion if it has none),
 *   reverting the local change instead of retrying it forever, which would block every
 *   later write of the collection (docs/replication.md §2.5). Transient failures throw: RxDB retries.
 */
export function createPushHandler(
  client: SupabaseClient,
  spec: TableSpec,
  onRejected: (r: WriteRejection) => void,
  session: Session,
) {
  const writable = spec.writable ?? [];

  function changedColumns(base: ReplicaDoc, doc: ReplicaDoc): Record<string, unknown> {
    const patch: Record<string, unknown> = {};
    for (const col of writable) {
      if (col !== 'id' && !deepEqual(base[col], doc[col])) patch[col] = doc[col];
    }
    if (base._deleted !== doc._deleted) patch._deleted = doc._deleted;
    return patch;
  }

  async function insert(doc: ReplicaDoc): Promise<Outcome> {
    const values: Record<string, unknown> = { _deleted: doc._deleted };
    for (const col of writable) values[col] = doc[col];
    const { data, error, status } = await sendAs(
      session,
      client.from(spec.name).insert(values).select('*'),
    );
    if (!error) return { kind: 'ok', row: (data as ServerRow[])[0] ?? null };
    // A replayed insert whose first reply was lost: the row is there, take it.
    if (error.code === '23505') return { kind: 'ok', row: await fetchRow(doc.id) };
    return { kind: 'failed', failure: toFailure(error, status) };
  }

  async function update(base: ReplicaDoc, doc: ReplicaDoc): Promise<Outcome> {
    const patch = changedColumns(base, doc);
    if (Object.keys(patch).length === 0) return { kind: 'ok', row: null };
    let query = client.from(spec.name).update(patch).eq('id', doc.id);
    query =
      typeof base.server_modified === 'string'
        ? query.eq('_modified', base.server_modified)
        : query.is('_modified', null);
    const { data, error, status } = await sendAs(session, query.select('*'));
    if (error) return { kind: 'failed', failure: toFailure(error, status) };
    const row = (data as ServerRow[])[0];
    // Nothing matched the version condition: somebody else wrote first (P2).
    return { kind: 'ok', row: row ?? (await fetchRow(doc.id)) };
  }

  /**
   * A document with a `server_modified` but no assumed master state is not new: it was pulled
   * under an earlier replication, and a schema bump gave the collection a new replication
   * identifier (R3), whose first push re-presents every stored document. Its base is the
   * server row at the version it was pulled at, so only edits made on top of that are sent;
   * if the server row moved on since (or is gone), there is nothing to merge against and the
   * server's state is kept. One request per batch fetches those rows.
   */
  async function pulledBefore(
    rows: RxReplicationWriteToMasterRow<ReplicaDoc>[],
  ): Promise<Map<string, ServerRow>> {
    const ids = rows
      .filter(
        (r) => !r.assumedMasterState && typeof r.newDocumentState.server_modified === 'string',
      )
      .map((r) => r.newDocumentState.id);
    if (ids.length === 0) return new Map();
    const { data, error, status } = await sendAs(
      session,
      client.from(spec.name).select('*').in('id', ids),
    );
    if (error) throw new TransientSyncError(toFailure(error, status), spec.name);
    return new Map((data as ServerRow[]).map((row) => [String(row.id), row]));
  }

  async function fetchRow(id: string): Promise<ServerRow | null> {
    const { error, status, ...result } = await sendAs(
      session,
      client
        .from(spec.name)
        .select('*')
        .eq('id', id)
        .abortSignal(replicationDeadline())
        .maybeSingle(),
    );
    if (error) throw new TransientSyncError(toFailure(error, status), spec.name);
    return (result.data as ServerRow | null) ?? null;
  }

  return async function push(
    rows: RxReplicationWriteToMasterRow<ReplicaDoc>[],
  ): Promise<WithDeleted<ReplicaDoc>[]> {
    const masterStates: WithDeleted<ReplicaDoc>[] = [];
    const pulled = await pulledBefore(rows);
    for (const { assumedMasterState, newDocumentState: doc } of rows) {
      let base = assumedMasterState;
      // The server row, for a document pulled under an earlier replication: handed back even
      // when nothing was sent, so the document takes the columns its old schema dropped.
      let represented: WithDeleted<ReplicaDoc> | null = null;
      if (!base && typeof doc.server_modified === 'string') {
        const server = pulled.get(doc.id);
        represented = server ? rowToDoc(spec, server) : { ...doc, _deleted: true };
        if (!server || !sameInstant(represented.server_modified, doc.server_modified)) {
          masterStates.push(represented);
          continue;
        }
        base = represented;
      }
      const outcome = base ? await update(base, doc) : await insert(doc);
      if (outcome.kind === 'ok') {
        const row = outcome.row ? rowToDoc(spec, outcome.row) : represented;
        if (row) masterStates.push(row);
        continue;
      }
      if (isTransient(outcome.failure)) throw new TransientSyncError(outcome.failure, spec.name);
      onRejected({ table: spec.name, id: doc.id, ...refusalOf(outcome.failure) });
      const current = await fetchRow(doc.id);
      masterStates.push(current ? rowToDoc(spec, current) : { ...(base ?? doc), _deleted: true });
    }
    return masterStates;
  };
}
