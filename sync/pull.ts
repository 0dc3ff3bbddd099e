import type { SupabaseClient } from '@supabase/supabase-js';
import type { ReplicationPullHandlerResult, RxReplicationPullStreamItem } from 'rxdb';
import { Subject } from 'rxjs';
import { Temporal } from 'temporal-polyfill';
import { TransientSyncError, toFailure } from './errors.ts';
import { rowToDoc, type ServerRow } from './row.ts';
import { sendAs, type Session } from './session.ts';
import type { ReplicaDoc, TableSpec } from './tables.ts';

/** Keyset position of a pull: the last row seen in `(_modified, id)` order (R6). */
export type Checkpoint = { modified: string; id: string };

export type PullSourceOptions = {
  client: SupabaseClient;
  spec: TableSpec;
  /** How far behind the checkpoint a caught-up pull looks again (R7). */
  overlapMs: number;
  /** Called after every successful request with the rows it brought and whether it caught up. */
  onPage: (page: { rows: number; caughtUp: boolean }) => void;
  /** Every request goes through it (A1). */
  session: Session;
  /**
   * The first page from the start, asked for while the replica was still opening
   * (`askFirstPage`); taken on the same terms as any page asked for ahead (R6).
   */
  firstPage?: PageAhead;
};

export type PullSource = {
  handler: (
    checkpoint: Checkpoint | undefined,
    batchSize: number,
  ) => Promise<ReplicationPullHandlerResult<ReplicaDoc, Checkpoint>>;
  /** Feeds RxDB's pull.stream$: Realtime rows, RPC results and RESYNC requests. */
  stream$: Subject<RxReplicationPullStreamItem<ReplicaDoc, Checkpoint>>;
  /**
   * Applies server rows that did not come from a pull (Realtime, RPC results) without moving
   * the checkpoint: only pulls advance it, so a row missed by Realtime is always pulled (R8).
   */
  push: (rows: readonly ServerRow[]) => void;
};

/**
 * The most rows one pull page asks for. PostgREST's `db-max-rows` (1000 on Supabase by
 * default, and in supabase/local) cuts longer pages to 1000 rows, and RxDB takes a page
 * shorter than its batch size for "caught up": a larger batch would end the first sync early.
 */
export const MAX_PAGE_ROWS = 1000;

/** Rows RxDB asks for per pull page: the engine's option, never more than a page holds (R6). */
export function pullBatchSize(asked: number | undefined): number {
  return Math.min(asked ?? MAX_PAGE_ROWS, MAX_PAGE_ROWS);
}

/**
 * At most this many rows are read again per caught-up pull: enough for the few transactions
 * in flight around a checkpoint, without re-reading a whole page after a burst of writes.
 */
const OVERLAP_ROWS = 100;

function hasPosition(cp: Checkpoint | undefined): cp is Checkpoint {
  return typeof cp?.modified === 'string' && typeof cp.id === 'string';
}

function sameCheckpoint(a: Checkpoint | undefined, b: Checkpoint | undefined): boolean {
  return a?.modified === b?.modified && a?.id === b?.id;
}

/**
 * A page asked for before RxDB asks for it (R6): the page after a full one, asked for while
 * RxDB stores that one, or a fresh replica's first page, asked for while it opens. `after`
 * undefined: from the start. `rows` is null when the request failed.
 */
export type PageAhead = {
  after: Checkpoint | undefined;
  limit: number;
  rows: Promise<ServerRow[] | null>;
};

function subtractMs(instant: string, ms: number): string {
  return Temporal.Instant.from(instant).subtract({ milliseconds: ms }).toString();
}

type PageRequest = {
  client: SupabaseClient;
  spec: TableSpec;
  session: Session;
};

/** One keyset page of `spec`'s table: up to `limit` rows after `cp` (from the start without). */
async function forwardPage(
  { client, spec, session }: PageRequest,
  cp: Checkpoint | undefined,
  limit: number,
): Promise<ServerRow[]> {
  let query = client.from(spec.name).select('*');
  if (hasPosition(cp)) {
    // The exact filter RxDB's Supabase plugin sends (quoted names, raw values), §2.3.
    query = query.or(
      `"_modified".gt.${cp.modified},and("_modified".eq.${cp.modified},"id".gt.${cp.id})`,
    );
  }
  const { data, error, status } = await sendAs(
    session,
    query.order('_modified', { ascending: true }).order('id', { ascending: true }).limit(limit),
  );
  if (error) throw new TransientSyncError(toFailure(error, status), spec.name);
  return (data ?? []) as ServerRow[];
}

/** Asks for a page now, for a pull that may take it later; a failure just leaves it untaken. */
function askAhead(request: PageRequest, after: Checkpoint | undefined, limit: number): PageAhead {
  return { after, limit, rows: forwardPage(request, after, limit).catch(() => null) };
}

/**
 * A fresh replica's first page of `spec`, asked for before the replica is open: opening the
 * databases of a fresh replica takes about as long as the server takes to answer the first
 * pages of a big collection, and neither needs the other. Give it to `createPullSource`.
 */
export function askFirstPage(request: PageRequest, limit: number): PageAhead {
  return askAhead(request, undefined, limit);
}

export function createPullSource({
  client,
  spec,
  overlapMs,
  onPage,
  session,
  firstPage,
}: PullSourceOptions): PullSource {
  const stream$ = new Subject<RxReplicationPullStreamItem<ReplicaDoc, Checkpoint>>();
  let lastCheckpoint: Checkpoint | undefined;
  let nextPage: PageAhead | null = firstPage ?? null;
  const request: PageRequest = { client, spec, session };

  const forward = (cp: Checkpoint | undefined, limit: number) => forwardPage(request, cp, limit);

  /**
   * `_modified` is stamped before commit, so a transaction that commits late can land behind
   * a checkpoint that already moved on. Once a pull has caught up, rows stamped within
   * `overlapMs` before the checkpoint are read again; re-applying a known row changes nothing.
   */
  async function overlap(cp: Checkpoint, limit: number): Promise<ServerRow[]> {
    if (limit <= 0 || overlapMs <= 0) return [];
    const { data, error, status } = await sendAs(
      session,
      client
        .from(spec.name)
        .select('*')
        .gte('_modified', subtractMs(cp.modified, overlapMs))
        .lte('_modified', cp.modified)
        .order('_modified', { ascending: false })
        .limit(limit),
    );
    if (error) throw new TransientSyncError(toFailure(error, status), spec.name);
    return (data ?? []) as ServerRow[];
  }

  /**
   * After a full page RxDB stores it and then asks for the next one; asking the server for
   * that page at once keeps the server and the replica busy at the same time, which roughly
   * halves a first sync. Only a full page asked for from this very position is taken: a short
   * one says "caught up", and that must be the server's answer now, not from a moment ago.
   * An older full page is still a page of real rows (newer versions of them come later).
   */
  function prefetch(after: Checkpoint, limit: number): void {
    nextPage = askAhead(request, after, limit);
  }

  async function page(cp: Checkpoint | undefined, limit: number): Promise<ServerRow[]> {
    const ahead = nextPage;
    nextPage = null;
    if (ahead && ahead.limit === limit && sameCheckpoint(ahead.after, cp)) {
      const rows = await ahead.rows;
      if (rows?.length === limit) return rows;
    }
    return forward(cp, limit);
  }

  async function handler(checkpoint: Checkpoint | undefined, batchSize: number) {
    const cp = hasPosition(checkpoint) ? checkpoint : undefined;
    lastCheckpoint ??= cp;
    const rows = await page(cp, batchSize);
    const caughtUp = rows.length < batchSize;
    // Keep the page short of batchSize so RxDB still sees "caught up" and stops asking.
    const again =
      caughtUp && cp ? await overlap(cp, Math.min(OVERLAP_ROWS, batchSize - rows.length - 1)) : [];
    const last = rows[rows.length - 1];
    const next: Checkpoint | undefined = last
      ? { modified: String(last._modified), id: String(last.id) }
      : cp;
    lastCheckpoint = next;
    if (!caughtUp && next) prefetch(next, batchSize);
    onPage({ rows: rows.length, caughtUp });
    return {
      checkpoint: next,
      documents: [...again, ...rows].map((row) => rowToDoc(spec, row)),
    };
  }

  return {
    handler,
    stream$,
    push(rows) {
      if (rows.length === 0) return;
      stream$.next({
        documents: rows.map((row) => rowToDoc(spec, row)),
        checkpoint: lastCheckpoint as Checkpoint,
      });
    },
  };
}
