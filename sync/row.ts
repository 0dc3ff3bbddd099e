import { Temporal } from 'temporal-polyfill';
import type { TableSpec } from './tables.ts';

export type ServerRow = Record<string, unknown>;
export type ReplicaDoc = Record<string, unknown> & { id: string; _deleted: boolean };

/** Any instant Postgres or Realtime prints (`…+00:00`, `… +00`) becomes `…Z` (R5). */
export function normaliseInstant(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return Temporal.Instant.from(value).toString();
  } catch {
    return value;
  }
}

/**
 * Turns a server row (REST, Realtime or an RPC result) into a replica document: only the
 * schema's properties (unknown columns would fail RxDB's additionalProperties=false and
 * silently drop the row, rxdb-sync.md §1.3), missing ones as null, `_modified` kept as
 * `server_modified`, timestamps normalised (R5).
 */
export function rowToDoc(spec: TableSpec, row: ServerRow): ReplicaDoc {
  const props = Object.keys(spec.schema.properties);
  const doc: Record<string, unknown> = {};
  for (const key of props) {
    if (key === 'server_modified') continue;
    const value = row[key] ?? null;
    doc[key] = spec.instants.includes(key) ? normaliseInstant(value) : value;
  }
  doc.server_modified = typeof row._modified === 'string' ? row._modified : null;
  doc._deleted = row._deleted === true;
  return doc as ReplicaDoc;
}
