import type { RxConflictHandler, RxConflictHandlerInput, WithDeleted } from 'rxdb';
import { deepEqual } from 'rxdb/plugins/utils';
import type { ReplicaDoc, TableName } from './tables.ts';

/** A local value the conflict rule dropped in favour of the server's (P3). */
export type DroppedField = { field: string; local: unknown; server: unknown };

export type ConflictReport = {
  table: TableName;
  id: string;
  /** 'merged': some local fields were dropped; 'server-kept': the whole local change was. */
  outcome: 'merged' | 'server-kept';
  dropped: DroppedField[];
};

/**
 * The written rule for documents a user writes directly (P3): a three-way merge against the
 * version the local edit started from.
 * - a field changed only locally keeps the local value and is pushed again;
 * - a field changed only on the server takes the server value;
 * - a field changed on both sides to different values takes the server's value, because that
 *   edit is already committed and may already be on other screens; the local value is reported;
 * - if either side deleted the document, the server's state wins as a whole and is reported
 *   when it undoes a local change.
 * Pure, so it is unit-tested without a server.
 */
export function mergeOwnedDoc(
  input: RxConflictHandlerInput<ReplicaDoc>,
  fields: readonly string[],
): { doc: WithDeleted<ReplicaDoc>; dropped: DroppedField[]; wholeServer: boolean } {
  const { assumedMasterState: base, newDocumentState: local, realMasterState: server } = input;
  if (!base) return { doc: server, dropped: [], wholeServer: false };
  const changedLocally = fields.filter((f) => !deepEqual(local[f], base[f]));
  if (server._deleted || local._deleted) {
    const lostDelete = local._deleted && !server._deleted;
    const lostEdits = server._deleted ? changedLocally : [];
    const dropped = [
      ...(lostDelete ? [{ field: '_deleted', local: true, server: false }] : []),
      ...lostEdits.map((field) => ({ field, local: local[field], server: server[field] })),
    ];
    return { doc: server, dropped, wholeServer: true };
  }
  const doc: Record<string, unknown> = { ...server };
  const dropped: DroppedField[] = [];
  for (const field of changedLocally) {
    const serverChanged = !deepEqual(server[field], base[field]);
    if (!serverChanged) doc[field] = local[field];
    else if (!deepEqual(server[field], local[field])) {
      dropped.push({ field, local: local[field], server: server[field] });
    }
  }
  return { doc: doc as WithDeleted<ReplicaDoc>, dropped, wholeServer: false };
}

/** RxDB conflict handler applying {@link mergeOwnedDoc} and reporting what it dropped. */
export function ownedDocConflictHandler(
  table: TableName,
  fields: readonly string[],
  report: (r: ConflictReport) => void,
): RxConflictHandler<ReplicaDoc> {
  return {
    isEqual: (a, b) => deepEqual(a, b),
    resolve(input) {
      const { doc, dropped, wholeServer } = mergeOwnedDoc(input, fields);
      if (dropped.length > 0) {
        report({ table, id: doc.id, outcome: wholeServer ? 'server-kept' : 'merged', dropped });
      }
      return Promise.resolve(doc);
    },
  };
}
