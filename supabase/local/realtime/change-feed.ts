import type { Database, QueryResult } from '../db/index.ts';
import type { Logger } from '../log.ts';
import type { Identity } from '../request-auth.ts';
import { loadTables, syncCaptureTriggers, type TableInfo } from './catalog.ts';
import type { FilterTerm } from './filters.ts';

export type ChangeType = 'INSERT' | 'UPDATE' | 'DELETE';

/** One binding of a channel, as echoed in the join reply. `*` matches any schema or table. */
export type PgBinding = {
  id: number;
  event: '*' | ChangeType;
  schema: string;
  table: string;
  terms: FilterTerm[];
};

/** The `data` of a postgres_changes push (docs/platform-wire.md §4.3). */
export type ChangeData = {
  schema: string;
  table: string;
  commit_timestamp: string;
  type: ChangeType;
  columns: { name: string; type: string }[];
  record?: Record<string, unknown>;
  old_record?: Record<string, unknown>;
  errors: null;
};

export type PgSubscriber = {
  bindings: readonly PgBinding[];
  /** Read at delivery time so a refreshed access token applies to the next change. */
  identity(): Identity;
  deliver(data: ChangeData, bindingIds: number[]): void;
};

export type ChangeFeed = {
  subscribe(sub: PgSubscriber): () => void;
  /**
   * Resolves once every change committed from now on reaches the current subscribers: a read
   * that began while nobody subscribed deletes what it finds unread, and a subscriber who
   * arrived meanwhile must not be told it is live before that read has ended.
   */
  live(): Promise<void>;
  /**
   * Reads the log now instead of at the next poll: the platform calls it when a write it
   * answered has committed, so the product's own changes reach subscribers without the wait.
   */
  wake(): void;
  close(): Promise<void>;
};

type ChangeRow = {
  id: string;
  schema: string;
  table: string;
  relid: number;
  type: ChangeType;
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
  commit_timestamp: string;
};

type Candidate = {
  change: ChangeRow;
  table: TableInfo;
  sub: PgSubscriber;
  identity: Identity;
  bindings: PgBinding[];
};

const DDL_CHANNEL = 'realtime_ddl';
const NO_DDL_TRIGGER_CACHE_MS = 2000;
/** Change rows taken by one read, oldest first; a full read is followed by another at once. */
const BATCH = 500;
/**
 * How long the feed waits before it reads the log again: `BUSY_MS` after a read that found
 * changes, so the changes of that moment arrive together; after each read that found none, twice
 * as long as the last wait, up to `IDLE_MS` while someone subscribes — the interval at which the
 * real server polls its replication slot — and up to `UNWATCHED_MS` while nobody does (the rows
 * then only have to go).
 */
const BUSY_MS = 20;
const IDLE_MS = 100;
const UNWATCHED_MS = 1000;
/** After a failed read (the database away), before the next one. */
const RETRY_MS = 1000;
/**
 * Rows deleted between two vacuums of the log. Each read walks the primary key from its start,
 * over the entries of every row deleted before; PGlite has no autovacuum to remove them, and
 * after 100,000 changes a read cost it three times what it costs on a vacuumed log.
 */
const VACUUM_EVERY = 5000;
/*
 * Both read the log's oldest committed rows and delete them in the same statement; sent through
 * `batch`, which prepares a statement once per connection. Rows of transactions still open are
 * invisible to them and stay for a later read.
 */
const OLDEST = 'select id from realtime.change_log order by id limit $1';
const DELETE_SQL = `delete from realtime.change_log where id in (${OLDEST})`;
const READ_AND_DELETE_SQL = `with taken as (${DELETE_SQL}
  returning id, schema_name, table_name, relid, type, record, old_record, commit_timestamp)
  select id::text, schema_name as schema, table_name as "table", relid::int, type, record, old_record,
         to_char(commit_timestamp at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as commit_timestamp
    from taken order by taken.id`;

/** The feed's state; every function below takes it explicitly. */
type Feed = {
  readonly db: Database;
  readonly log: Logger;
  readonly subscribers: Set<PgSubscriber>;
  closed: boolean;
  /** A read deleting changes unread, for nobody subscribed when it began. */
  unread: Promise<QueryResult[]> | undefined;
  /** The wait before the next read; ends early when `wake` is called. */
  sleep: { timer: NodeJS.Timeout; done: () => void } | undefined;
  /** Roles that bypass RLS (service_role, usually): their changes skip the visibility check. */
  readonly bypassRls: ReadonlySet<string>;
  readonly tableCache: Map<number, { info: TableInfo; at: number }>;
  /** Without a superuser there is no DDL event trigger to invalidate the cache; keep it short. */
  readonly cacheTtl: number;
};

/**
 * Turns committed changes into postgres_changes pushes by reading the change log over and over,
 * as the real server polls its replication slot. The capture trigger sends no NOTIFY: PostgreSQL
 * serialises the commits of every transaction that notifies (it holds a database-wide lock from
 * its NOTIFY's queueing until after its commit is flushed), so one NOTIFY per captured change
 * made every write to a published table wait for a disk flush of its own — on PostgreSQL, a few
 * hundred bookings per second however many patients booked at once (bench/booking).
 *
 * Each read takes the oldest committed rows in id order, and reads follow one another. The
 * capture trigger is deferred to commit, so a change's id is taken as its transaction commits:
 * subscribers get changes in commit order, a transaction that started first and committed last
 * coming last. Each read costs one read-and-delete of the change rows, at most one filter
 * evaluation and one RLS statement, plus a catalog read after DDL.
 */
export async function startChangeFeed(db: Database, log: Logger): Promise<ChangeFeed> {
  const { rows: bypass } = await db.query<{ rolname: string }>(
    `select rolname from pg_roles where rolbypassrls and rolname in ('anon', 'authenticated', 'service_role')`,
  );
  // Changes left from a previous run have no subscriber to go to.
  await db.query('delete from realtime.change_log');
  await syncCaptureTriggers(db);
  const { rows: ddlTrigger } = await db.query(
    `select 1 from pg_event_trigger where evtname = 'realtime_ddl'`,
  );
  const feed: Feed = {
    db,
    log,
    subscribers: new Set(),
    closed: false,
    unread: undefined,
    sleep: undefined,
    bypassRls: new Set(bypass.map((r) => r.rolname)),
    tableCache: new Map(),
    cacheTtl: ddlTrigger.length > 0 ? Infinity : NO_DDL_TRIGGER_CACHE_MS,
  };
  const unlistenDdl = await db.listen(DDL_CHANNEL, () => feed.tableCache.clear());
  const reading = readLoop(feed);

  return {
    subscribe(sub) {
      feed.subscribers.add(sub);
      // A first subscriber should not wait out the long interval of an unwatched log.
      if (feed.subscribers.size === 1) wake(feed);
      return () => void feed.subscribers.delete(sub);
    },
    wake: () => wake(feed),
    async live() {
      // Whether it deleted anything or failed, it is over.
      await feed.unread?.catch(() => undefined);
    },
    async close() {
      feed.closed = true;
      wake(feed);
      feed.subscribers.clear();
      await reading;
      await unlistenDdl();
    },
  };
}

/** Reads the log until the feed closes, waiting between reads as `BUSY_MS` says. */
async function readLoop(feed: Feed): Promise<void> {
  let wait = BUSY_MS;
  let deleted = 0;
  while (!feed.closed) {
    try {
      const taken = await readBatch(feed);
      deleted += taken;
      if (deleted >= VACUUM_EVERY) {
        deleted = 0;
        await feed.db.query('vacuum realtime.change_log');
      }
      if (taken === BATCH) continue;
      const longest = feed.subscribers.size > 0 ? IDLE_MS : UNWATCHED_MS;
      wait = taken > 0 ? BUSY_MS : Math.min(wait * 2, longest);
    } catch (e) {
      feed.log.error({ msg: 'realtime: change delivery failed', error: String(e) });
      wait = RETRY_MS;
    }
    await new Promise<void>((done) => {
      if (feed.closed) return done();
      feed.sleep = { timer: setTimeout(done, wait), done };
    });
    feed.sleep = undefined;
  }
}

/** Ends the wait before the next read. */
function wake(feed: Feed): void {
  if (!feed.sleep) return;
  clearTimeout(feed.sleep.timer);
  feed.sleep.done();
}

/** One read of the log: its oldest committed rows delivered and deleted; resolves to how many. */
async function readBatch(feed: Feed): Promise<number> {
  if (feed.subscribers.size === 0) {
    // Nobody to deliver to: the rows only have to go. Reading their records back would cost
    // the database their JSON and this process its decoding, for every change.
    feed.unread = feed.db.batch([{ sql: DELETE_SQL, params: [BATCH] }]);
    try {
      const [deleted] = await feed.unread;
      return deleted!.rowCount;
    } finally {
      feed.unread = undefined;
    }
  }
  const [read] = await feed.db.batch([{ sql: READ_AND_DELETE_SQL, params: [BATCH] }]);
  const changes = read!.rows as ChangeRow[];
  if (changes.length > 0) await deliver(feed, changes);
  return changes.length;
}

async function deliver(feed: Feed, changes: ChangeRow[]): Promise<void> {
  const tables = await tablesFor(feed, [...new Set(changes.map((c) => c.relid))]);
  const candidates: Candidate[] = [];
  for (const change of changes) {
    const table = tables.get(change.relid);
    if (!table) continue;
    for (const sub of feed.subscribers) {
      const bindings = sub.bindings.filter((b) => targets(b, change));
      if (bindings.length === 0) continue;
      const identity = sub.identity();
      if (!table.columns.some((c) => c.selectableBy.includes(identity.role))) continue;
      candidates.push({ change, table, sub, identity, bindings });
    }
  }
  await applyFilters(feed.db, candidates);
  const hidden = await hiddenByRls(
    feed,
    candidates.filter((c) => c.bindings.length > 0),
  );

  const built = new Map<string, ChangeData>();
  for (const c of candidates) {
    if (c.bindings.length === 0 || hidden.has(c)) continue;
    const key = `${c.change.id}:${c.identity.role}`;
    let data = built.get(key);
    if (!data) {
      data = changeData(c.change, c.table, c.identity.role);
      built.set(key, data);
    }
    c.sub.deliver(
      data,
      c.bindings.map((b) => b.id),
    );
  }
}

/** Drops from each candidate the bindings whose filter terms do not all hold. */
async function applyFilters(db: Database, candidates: Candidate[]): Promise<void> {
  type Check = { candidate: Candidate; binding: PgBinding; pass: boolean };
  const checks: Check[] = [];
  const sqlTerms: {
    op: string;
    negate: boolean;
    type: string;
    lhs: string | null;
    rhs: string[];
  }[] = [];
  const termOwner: Check[] = [];
  for (const candidate of candidates) {
    const source =
      (candidate.change.type === 'DELETE'
        ? candidate.change.old_record
        : candidate.change.record) ?? {};
    for (const binding of candidate.bindings) {
      if (binding.terms.length === 0) continue;
      const check: Check = { candidate, binding, pass: true };
      checks.push(check);
      for (const term of binding.terms) {
        const column = candidate.table.columns.find((col) => col.name === term.column);
        // A filter on a column the subscriber may not read must not reveal its values.
        const readable = column?.selectableBy.includes(candidate.identity.role) === true;
        if (!column || !readable || !(term.column in source)) {
          check.pass = false;
          continue;
        }
        sqlTerms.push({
          op: term.op,
          negate: term.negate,
          type: column.sqlType,
          lhs: asText(source[term.column]),
          rhs: Array.isArray(term.value) ? term.value : [term.value],
        });
        termOwner.push(check);
      }
    }
  }
  if (sqlTerms.length > 0) {
    const { rows } = await db.query<{ ok: boolean }>(
      `select realtime.filter_matches(t->>'op', (t->>'negate')::boolean, t->>'type', t->>'lhs', t->'rhs') as ok
         from jsonb_array_elements($1::jsonb) with ordinality as x(t, n) order by n`,
      [JSON.stringify(sqlTerms)],
    );
    rows.forEach((r, i) => {
      const owner = termOwner[i];
      if (owner && !r.ok) owner.pass = false;
    });
  }
  for (const check of checks) {
    if (!check.pass)
      check.candidate.bindings = check.candidate.bindings.filter((b) => b !== check.binding);
  }
}

/**
 * INSERT and UPDATE go only to subscribers whose role may SELECT the row under RLS, checked
 * like the real server: by primary key against the table as it is now (realtime.visible_rows,
 * one statement for the whole batch). A row deleted, or changed out of sight, before the check
 * is therefore not delivered, and neither is a change of a table with RLS but no primary key.
 * DELETE is never RLS-checked and carries only the key.
 */
async function hiddenByRls(feed: Feed, candidates: Candidate[]): Promise<Set<Candidate>> {
  const groups = new Map<string, Candidate[]>();
  for (const c of candidates) {
    if (c.change.type === 'DELETE' || !c.table.rls || feed.bypassRls.has(c.identity.role)) continue;
    const key = `${c.table.relid}\u0000${c.identity.role}\u0000${JSON.stringify(c.identity.claims)}`;
    const group = groups.get(key) ?? [];
    group.push(c);
    groups.set(key, group);
  }
  const hidden = new Set<Candidate>();
  if (groups.size === 0) return hidden;
  const checks = [...groups.values()];
  const { rows } = await feed.db.query<{ check_no: number; row_no: number }>(
    'select check_no, row_no from realtime.visible_rows($1::jsonb)',
    [
      JSON.stringify(
        checks.map((group) => ({
          relid: group[0]!.table.relid,
          role: group[0]!.identity.role,
          claims: JSON.stringify(group[0]!.identity.claims),
          records: group.map((c) => c.change.record ?? {}),
        })),
      ),
    ],
  );
  const visible = new Set(rows.map((r) => `${r.check_no}:${r.row_no}`));
  checks.forEach((group, g) =>
    group.forEach((c, i) => {
      if (!visible.has(`${g}:${i}`)) hidden.add(c);
    }),
  );
  return hidden;
}

/** Table shapes, cached until the DDL event trigger reports a catalog change. */
async function tablesFor(feed: Feed, relids: number[]): Promise<Map<number, TableInfo>> {
  const now = Date.now();
  const missing = relids.filter((id) => {
    const hit = feed.tableCache.get(id);
    return !hit || now - hit.at > feed.cacheTtl;
  });
  if (missing.length > 0) {
    for (const [id, info] of await loadTables(feed.db, missing))
      feed.tableCache.set(id, { info, at: now });
  }
  return new Map(
    relids.flatMap((id) => {
      const hit = feed.tableCache.get(id);
      return hit ? [[id, hit.info] as const] : [];
    }),
  );
}

function targets(b: PgBinding, change: ChangeRow): boolean {
  return (
    (b.event === '*' || b.event === change.type) &&
    (b.schema === '*' || b.schema === change.schema) &&
    (b.table === '*' || b.table === change.table)
  );
}

/** A record value as Postgres text, the form `record->>'col'` would give. */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The push for one role: only the columns that role may SELECT, in attnum order. */
function changeData(change: ChangeRow, table: TableInfo, role: string): ChangeData {
  const visible = table.columns.filter((c) => c.selectableBy.includes(role));
  // jsonb sorts keys; the real server's records (from WAL) keep column order.
  const pick = (rec: Record<string, unknown> | null) =>
    Object.fromEntries(
      visible.filter((c) => rec && c.name in rec).map((c) => [c.name, rec![c.name]]),
    );
  return {
    schema: change.schema,
    table: change.table,
    commit_timestamp: change.commit_timestamp,
    type: change.type,
    columns: visible.map(({ name, type }) => ({ name, type })),
    ...(change.type !== 'DELETE' ? { record: pick(change.record) } : {}),
    ...(change.type !== 'INSERT' ? { old_record: pick(change.old_record) } : {}),
    errors: null,
  };
}
