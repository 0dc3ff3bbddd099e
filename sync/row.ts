import { Temporal } from 'temporal-polyfill';
import type { ReplicaDoc, TableSpec } from './tables.ts';

export type ServerRow = Record<string, unknown>;

/** UTC as PostgREST and Realtime print it: `2026-11-23T12:00:00.123450+00:00`. */
const UTC_INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d*?)0*)?(?:Z|\+00(?::?00)?)$/;

/**
 * Any instant Postgres or Realtime prints (`…+00:00`, `… +00`) becomes `…Z` (R5), spelled as
 * Temporal spells it (fraction without trailing zeros). UTC strings, nearly all of them, take
 * a fast path: parsing every timestamp of a 10,000-row first sync with Temporal costs seconds.
 */
export function normaliseInstant(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const utc = UTC_INSTANT.exec(value);
  if (utc) return utc[2] ? `${utc[1]}.${utc[2]}Z` : `${utc[1]}Z`;
  try {
    return Temporal.Instant.from(value).toString();
  } catch {
    return value;
  }
}

/** A table's stored columns, each with whether it is an instant; worked out once per spec. */
type Column = { key: string; instant: boolean };
const columnsBySpec = new WeakMap<TableSpec, readonly Column[]>();

function columnsOf(spec: TableSpec): readonly Column[] {
  let columns = columnsBySpec.get(spec);
  if (!columns) {
    columns = Object.keys(spec.schema.properties)
      .filter((key) => key !== 'server_modified')
      .map((key) => ({ key, instant: spec.instants.includes(key) }));
    columnsBySpec.set(spec, columns);
  }
  return columns;
}

/**
 * Turns a server row (REST, Realtime or an RPC result) into a replica document: only the
 * schema's properties (unknown columns would fail RxDB's additionalProperties=false and
 * silently drop the row, docs/replication.md §1.3), missing ones as null, `_modified` kept as
 * `server_modified`, timestamps normalised (R5). Runs for every row of a first sync (20,000
 * for a doctor), hence the columns worked out once per table.
 */
export function rowToDoc(spec: TableSpec, row: ServerRow): ReplicaDoc {
  const doc: Record<string, unknown> = {};
  for (const { key, instant } of columnsOf(spec)) {
    const value = row[key] ?? null;
    doc[key] = instant ? normaliseInstant(value) : value;
  }
  doc.server_modified = typeof row._modified === 'string' ? row._modified : null;
  doc._deleted = row._deleted === true;
  return doc as ReplicaDoc;
}
