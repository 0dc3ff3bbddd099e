/**
 * Where each collection's first pull stands (S1), the marker that remembers it on this device
 * (S2), and the first pages a fresh replica asks for before it opens.
 */
import { distinctUntilChanged, map, of, type Observable } from 'rxjs';
import type { Replica } from './database.ts';
import { hasReplicaFiles, type IndexedDbSource } from './replica-files.ts';
import { askFirstPage, pullBatchSize, type PageAhead } from './pull.ts';
import type { Session } from './session.ts';
import type { EngineOptions } from './engine-options.ts';
import type { TableName, TableSpec } from './tables.ts';

/** Where a collection's first pull stands (S1). */
export type FirstPull = {
  /** It is in the replica: pages count as "caught up" only from then on. */
  stored: boolean;
  /** The pull handler returned a caught-up page since the replication last paused. */
  caughtUpReturned: boolean;
  /** Resolves when `stored` turns true. */
  whenStored: Promise<void>;
  markStored: () => void;
  /** A pull was asked for while this pull was under way and no page has been asked for since. */
  pullWanted: boolean;
};

export function newFirstPull(): FirstPull {
  let markStored: () => void = () => undefined;
  const whenStored = new Promise<void>((resolve) => {
    markStored = resolve;
  });
  return { stored: false, caughtUpReturned: false, whenStored, markStored, pullWanted: false };
}

/**
 * The local document that records a collection's first completed pull on this device (S2). Its
 * name carries the schema version, like the replication identifier: a version bump re-pulls,
 * and the collection counts as not loaded again until that pull is in.
 */
export function pulledMarker(spec: TableSpec): string {
  return `pulled-${spec.name}-v${spec.schema.version}`;
}

/** Whether this device's replica holds a first complete pull of `table` (S2). */
export function pulledOnce$(
  db: Replica,
  specs: readonly TableSpec[],
  table: TableName,
): Observable<boolean> {
  const spec = specs.find((s) => s.name === table);
  if (!spec) return of(false);
  return db.getLocal$(pulledMarker(spec)).pipe(
    map((doc) => doc !== null),
    distinctUntilChanged(),
  );
}

/**
 * A replica this device has never opened starts with a first sync: its first pages are asked
 * for before it opens, so the server answers while IndexedDB creates its databases (about
 * 150 ms of a doctor's two-second first sync in Chromium, bench/sync). Only then: a replica
 * that exists resumes from its checkpoints, and pages from the start would be wasted. The
 * pull takes such a page only if RxDB asks from the start and it is full (R6), so a wrong
 * guess (another tab creating the replica meanwhile) costs requests, never rows. Offline
 * (`online` false), nothing is asked (L3).
 */
export async function askFirstPages(
  opts: EngineOptions,
  online: boolean,
  idb: IndexedDbSource,
  specs: readonly TableSpec[],
  session: Session,
): Promise<ReadonlyMap<TableName, PageAhead>> {
  const pages = new Map<TableName, PageAhead>();
  if (!online) return pages;
  const fresh = await hasReplicaFiles(idb, opts.user?.id ?? null).then(
    (exists) => !exists,
    () => false,
  );
  if (!fresh) return pages;
  for (const spec of specs) {
    pages.set(
      spec.name,
      askFirstPage({ client: opts.supabase, spec, session }, pullBatchSize(opts.pullBatchSize)),
    );
  }
  return pages;
}
