import { isDeepStrictEqual } from 'node:util';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { firstValueFrom, merge, race, timer } from 'rxjs';
import { Temporal } from 'temporal-polyfill';
import WebSocket from 'ws';
import { signAccessToken } from '../../supabase/local/jwt.ts';
import { normaliseInstant, rowToDoc, type ServerRow } from '../row.ts';
import { tablesFor, type ReplicaDoc, type TableName, type TableSpec } from '../tables.ts';
import type { Device } from './device.ts';
import type { TestPlatform } from './platform.ts';

/** What the server holds for one device's user, as that user may read it (RLS), by table. */
type ServerView = Map<TableName, ServerRow[]>;

/** Why a device is not settled yet; empty when it is. */
export type Unsettled = string[];

const PAGE = 1000;

function inProcess(device: Device): TestPlatform {
  const t = device.t as Partial<TestPlatform>;
  if (!t.platform) {
    throw new Error('settled(): the device must talk to a platform started in this process');
  }
  return t as TestPlatform;
}

function label(device: Device): string {
  const user = device.user;
  return user ? `${user.role} ${user.id.slice(0, 8)}` : 'visitor';
}

/**
 * A supabase-js client acting as the device's user with a token minted for the check, not the
 * device's own session: the check reads through no fault of the device's network and never
 * refreshes (or revokes) the device's tokens.
 */
async function observer(device: Device): Promise<SupabaseClient> {
  const t = inProcess(device);
  const user = device.user;
  if (!user) return t.client();
  const now = Math.floor(Date.now() / 1000);
  const token = await signAccessToken(
    { sub: user.id, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + 600 },
    t.platform.ctx.keyring,
  );
  return createClient(t.url, t.anonKey, {
    accessToken: () => Promise.resolve(token),
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
}

async function readTable(client: SupabaseClient, spec: TableSpec): Promise<ServerRow[]> {
  const all: ServerRow[] = [];
  for (let from = 0; ; from += PAGE) {
    const { data, error } = await client
      .from(spec.name)
      .select('*')
      .order('_modified', { ascending: true })
      .order('id', { ascending: true })
      .range(from, from + PAGE - 1);
    if (error) throw new Error(`settled(): reading ${spec.name} failed: ${error.message}`);
    all.push(...(data as ServerRow[]));
    if (data.length < PAGE) return all;
  }
}

async function serverView(device: Device): Promise<ServerView> {
  const client = await observer(device);
  const view: ServerView = new Map();
  for (const spec of tablesFor(device.user?.role ?? 'visitor', device.tables)) {
    view.set(spec.name, await readTable(client, spec));
  }
  return view;
}

function instantMs(value: unknown): number {
  const normalised = normaliseInstant(value);
  return typeof normalised === 'string' ? Temporal.Instant.from(normalised).epochMilliseconds : -1;
}

function latest(values: unknown[]): number {
  return values.reduce<number>((max, v) => Math.max(max, instantMs(v)), -1);
}

/** A document as compared: the server stamp spelled one way (REST and Realtime differ). */
function comparable(doc: ReplicaDoc): Record<string, unknown> {
  const { _deleted: _d, ...rest } = doc;
  return { ...rest, server_modified: normaliseInstant(doc.server_modified) };
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * How one collection of the replica differs from the server rows the user may read: rows
 * missing, rows the user may not (or no longer) read, fields that differ. Deleted documents
 * count as absent on both sides.
 */
function tableDiff(spec: TableSpec, stored: ReplicaDoc[], rows: ServerRow[]): string[] {
  const server = new Map(
    rows
      .map((row) => rowToDoc(spec, row))
      .filter((doc) => !doc._deleted)
      .map((doc) => [doc.id, comparable(doc)]),
  );
  const local = new Map(
    stored.filter((doc) => !doc._deleted).map((doc) => [doc.id, comparable(doc)]),
  );
  const lines: string[] = [];
  for (const [id, doc] of server) {
    const mine = local.get(id);
    if (!mine) {
      lines.push(`  ${spec.name} ${id}: on the server, missing from the replica`);
      continue;
    }
    for (const key of new Set([...Object.keys(doc), ...Object.keys(mine)])) {
      if (!isDeepStrictEqual(mine[key], doc[key])) {
        lines.push(
          `  ${spec.name} ${id}.${key}: replica ${show(mine[key])}, server ${show(doc[key])}`,
        );
      }
    }
  }
  for (const id of local.keys()) {
    if (!server.has(id))
      lines.push(`  ${spec.name} ${id}: in the replica, not readable on the server`);
  }
  return lines;
}

/** Every difference between the device's replica and what its user may read on the server. */
export async function replicaDiff(device: Device): Promise<string[]> {
  const [stored, view] = await Promise.all([device.replica(), serverView(device)]);
  return [...view].flatMap(([table, rows]) => {
    const spec = device.tables.find((s) => s.name === table) as TableSpec;
    return tableDiff(spec, stored.get(table) ?? [], rows);
  });
}

/** Why `device` is not settled: a queue not empty, a collection behind the server, a diff. */
export async function unsettled(device: Device): Promise<Unsettled> {
  const reasons: string[] = [];
  const queued = (await firstValueFrom(device.sync.mutations$)).filter(
    (m) => m.state === 'pending',
  );
  if (queued.length > 0) {
    reasons.push(
      `${queued.length} mutation(s) still queued: ${queued.map((m) => `${m.kind} ${m.id}`).join(', ')}`,
    );
  }
  const [stored, view] = await Promise.all([device.replica(), serverView(device)]);
  const diff: string[] = [];
  for (const [table, rows] of view) {
    const docs = stored.get(table) ?? [];
    const server = latest(rows.map((r) => r._modified));
    const replica = latest(docs.map((d) => d.server_modified));
    if (server > replica) {
      reasons.push(
        `${table} not pulled past the server's latest change (${new Date(server).toISOString()}; replica at ${replica < 0 ? 'nothing' : new Date(replica).toISOString()})`,
      );
    }
    const spec = device.tables.find((s) => s.name === table) as TableSpec;
    diff.push(...tableDiff(spec, docs, rows));
  }
  if (diff.length > 0) {
    reasons.push(
      `replica differs from what RLS lets this user read on the server:\n${diff.join('\n')}`,
    );
  }
  return reasons;
}

export type SettledOptions = { timeoutMs?: number };

const DEFAULT_TIMEOUT_MS = 15_000;
/** How often the server is looked at again when no device stored anything meanwhile. */
const RECHECK_MS = 250;

/**
 * Resolves once every device is settled: its queue holds nothing pending, every collection has
 * pulled past the server's latest change the user may see, and every replica equals what RLS
 * lets that user read. It never nudges the engines (no resync): what the engines do by
 * themselves (Realtime, retries, reconnects) must get there. Rejects after `timeoutMs` with,
 * per device still unsettled, why — queued mutations, collections behind, and the diff.
 */
export async function settled(...args: (Device | SettledOptions)[]): Promise<void> {
  const devices = args.filter((a): a is Device => typeof (a as Device).sync !== 'undefined');
  const opts = (args.find((a) => !devices.includes(a as Device)) ?? {}) as SettledOptions;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const changed = firstValueFrom(
      race(
        merge(...devices.flatMap((d) => [d.replicaChanges$(), d.sync.mutations$])),
        timer(RECHECK_MS),
      ),
      { defaultValue: null },
    );
    const reasons = await Promise.all(devices.map(unsettled));
    if (reasons.every((r) => r.length === 0)) return;
    if (Date.now() >= deadline) {
      const report = devices
        .map((d, i) => ({ d, r: reasons[i] ?? [] }))
        .filter(({ r }) => r.length > 0)
        .map(({ d, r }) => `${label(d)}:\n- ${r.join('\n- ')}`)
        .join('\n');
      throw new Error(`settled() gave up after ${timeoutMs / 1000} s; not settled:\n${report}`);
    }
    // Let what is in flight land before looking again.
    await changed;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Throws, with the diff, unless the device's replica equals what its user may read now. */
export async function expectReplicaEqualsServer(device: Device): Promise<void> {
  const diff = await replicaDiff(device);
  if (diff.length > 0) {
    throw new Error(
      `the replica of ${label(device)} differs from what RLS lets this user read on the server:\n${diff.join('\n')}`,
    );
  }
}

/**
 * Throws unless the server applied the mutation exactly once: one booking or guide stamped
 * with its id, or one entry in the server's replay log (every other action records there).
 */
export async function expectExactlyOnce(t: TestPlatform, mutationId: string): Promise<void> {
  const { rows } = await t.platform.ctx.db.query<{ source: string; n: number }>(
    `select 'agendamentos' as source, count(*)::int as n from public.agendamentos where mutation_id = $1
     union all select 'guias', count(*)::int from public.guias where mutation_id = $1
     union all select 'app_private.mutations', count(*)::int from app_private.mutations where mutation_id = $1`,
    [mutationId],
  );
  const found = rows.filter((r) => r.n > 0);
  const total = found.reduce((sum, r) => sum + r.n, 0);
  if (total !== 1) {
    const where = found.map((r) => `${r.n} in ${r.source}`).join(', ') || 'nowhere';
    throw new Error(`mutation ${mutationId} applied ${total} times on the server (${where})`);
  }
}
