import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { getChangedDocumentsSince, type RxStorage, type RxStorageInstance } from 'rxdb';
import { BehaviorSubject, Subject, filter, firstValueFrom, merge, type Observable } from 'rxjs';
import WebSocket from 'ws';
import { dexieStorage } from '../database.ts';
import type { IndexedDbSource } from '../replica-files.ts';
import {
  createSyncEngine,
  type SyncEngine,
  type SyncEngineOptions,
  type SyncUser,
} from '../index.ts';
import { TABLES, tablesFor, type ReplicaDoc, type TableName, type TableSpec } from '../tables.ts';
import { Network } from './network.ts';
import { PASSWORD } from './people.ts';
import { memoryStorage, type TestPlatform } from './platform.ts';

type AnyInstance = RxStorageInstance<ReplicaDoc, unknown, unknown>;
type AuthStorage = ReturnType<typeof memoryStorage>;

/**
 * The RxDB storage of one tab: Dexie on the device's IndexedDB, as the engine opens it by
 * default, noting each collection's storage instance so the kit can read the replica as stored
 * (deleted documents included) without opening a second database. A second tab's storage has
 * another name: RxDB refuses two databases of one name and storage in a JavaScript realm (two
 * browser tabs are two realms). The tabs still share change events and leader election, as
 * browser tabs do: RxDB's channel for both is named after Dexie and the database, and in Node
 * the broadcast-channel package carries it between the two for real (through its Node method),
 * where a browser uses the native BroadcastChannel.
 */
class TabStorage {
  /** Per collection, its storage instances by schema version (a migration opens the old one). */
  readonly instances = new Map<string, Map<number, AnyInstance>>();
  readonly storage: RxStorage<unknown, unknown>;

  constructor(idb: IndexedDbSource, name: string | null, base?: RxStorage<unknown, unknown>) {
    const inner = base ?? dexieStorage(idb);
    const instances = this.instances;
    const storage: RxStorage<unknown, unknown> = {
      name: name ?? inner.name,
      rxdbVersion: inner.rxdbVersion,
      async createStorageInstance(params) {
        const instance = await inner.createStorageInstance(params);
        const versions = instances.get(params.collectionName) ?? new Map<number, AnyInstance>();
        versions.set(params.schema.version, instance as unknown as AnyInstance);
        instances.set(params.collectionName, versions);
        return instance;
      },
    };
    this.storage = storage;
  }
}

/** Documents as the replica stores them, without RxDB's bookkeeping fields. */
function stripped(doc: Record<string, unknown>): ReplicaDoc {
  const { _meta: _m, _rev: _r, _attachments: _a, ...rest } = doc;
  return rest as ReplicaDoc;
}

/** Devices created and not stopped yet, oldest first (platformForFile stops them after each test). */
const open = new Set<Device>();

export type DeviceOptions = {
  /** Another tab of this device: shares its IndexedDB, session storage and connection. */
  tabOf?: Device;
};

/**
 * One phone or laptop (or one more tab of it): its own network, IndexedDB (fake-indexeddb),
 * unmodified supabase-js client and sync engine. `device()` in sync/testing/index.ts makes one
 * signed in and synced; this class is the lower level for tests that drive each step.
 */
export class Device {
  readonly net: Network;
  readonly online$ = new BehaviorSubject(true);
  readonly focus$ = new Subject<void>();
  readonly indexedDB: IDBFactory;
  client: SupabaseClient;
  engine: SyncEngine | null = null;
  /** Who this device's engine runs for (null before `start`, or for a visitor). */
  user: SyncUser | null = null;
  /** The tables this device's engine replicates (a test may pass a bumped schema). */
  tables: readonly TableSpec[] = TABLES;
  private readonly authStorage: AuthStorage;
  private readonly tabs: Device[] = [];
  private readonly tabStorage: TabStorage;
  private startOptions: Partial<SyncEngineOptions> = {};
  /**
   * The Realtime socket's last close, still under way or done. realtime-js ignores `connect()`
   * while it is disconnecting, so a connection that comes back sooner than the old socket
   * closed would otherwise stay without Realtime for good.
   */
  private socketClosed: Promise<unknown> = Promise.resolve();

  /** `t`: the platform, in this process or (benchmarks) another one; only its address is used. */
  constructor(
    readonly t: Pick<TestPlatform, 'url' | 'anonKey'>,
    opts: DeviceOptions = {},
  ) {
    const first = opts.tabOf;
    this.net = new Network(t.anonKey);
    this.indexedDB = first?.indexedDB ?? new IDBFactory();
    // localStorage is the browser's, shared by its tabs: one session for all of them.
    this.authStorage = first?.authStorage ?? memoryStorage();
    this.tabStorage = new TabStorage(
      this.idb(),
      first ? `dexie-tab-${first.tabs.length + 2}` : null,
    );
    this.client = this.newClient();
    if (first) {
      first.tabs.push(this);
      this.net.online = first.net.online;
      this.online$.next(first.online$.getValue());
    }
    open.add(this);
  }

  private idb(): IndexedDbSource {
    return { factory: this.indexedDB, keyRange: IDBKeyRange };
  }

  private newClient(): SupabaseClient {
    return createClient<unknown>(this.t.url, this.t.anonKey, {
      auth: {
        storage: this.authStorage,
        autoRefreshToken: false,
        persistSession: true,
        detectSessionInUrl: false,
      },
      global: { fetch: this.net.fetch },
      realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
    });
  }

  /** Makes the stored session look expired, as after a night with the laptop closed. */
  expireSession(): void {
    for (const key of this.authStorage.keys()) {
      const session = JSON.parse(this.authStorage.getItem(key) ?? 'null') as {
        expires_at?: number;
      } | null;
      if (session?.expires_at === undefined) continue;
      session.expires_at = Math.floor(Date.now() / 1000) - 60;
      this.authStorage.setItem(key, JSON.stringify(session));
    }
  }

  hasStoredSession(): boolean {
    return this.authStorage
      .keys()
      .some((k) => this.authStorage.getItem(k)?.includes('refresh_token'));
  }

  async signIn(email: string): Promise<string> {
    const { data, error } = await this.client.auth.signInWithPassword({
      email,
      password: PASSWORD,
    });
    if (error) throw error;
    return data.user.id;
  }

  async start(user: SyncUser | null, extra: Partial<SyncEngineOptions> = {}): Promise<SyncEngine> {
    open.add(this);
    this.user = user;
    this.startOptions = extra;
    this.tables = extra.tables ?? TABLES;
    const storage = extra.storage
      ? new TabStorage(this.idb(), null, extra.storage)
      : this.tabStorage;
    this.engine = await createSyncEngine({
      supabase: this.client,
      serverUrl: this.t.url,
      user,
      indexedDB: this.idb(),
      online$: this.online$,
      focus$: this.focus$,
      backoff: { baseMs: 25, maxMs: 400 },
      retryTimeMs: 100,
      ...extra,
      storage: storage.storage,
    });
    this.replicaStorage = storage;
    return this.engine;
  }

  private replicaStorage: TabStorage | null = null;

  get sync(): SyncEngine {
    if (!this.engine) throw new Error('engine not started');
    return this.engine;
  }

  /**
   * A page reload: the engine and the supabase-js client close and open again over the same
   * IndexedDB and stored session, with the same options; resolves once the engine is open
   * (offline too: nothing waits for the server). `update`: engine options that change with
   * the reload, as an app update ships them (e.g. `tables` with a bumped schema version).
   */
  async reload(update: Partial<SyncEngineOptions> = {}): Promise<SyncEngine> {
    await this.stop();
    this.client = this.newClient();
    return this.start(this.user, { ...this.startOptions, ...update });
  }

  /**
   * Another tab of this device's browser: the same IndexedDB and stored session, its own
   * supabase-js client and engine, with real cross-tab change events and leader election (only
   * the leader tab sends the queue). Both tabs run with `multiInstance`, as the app does.
   */
  async tab(): Promise<Device> {
    if (!this.engine || this.startOptions.multiInstance !== true) {
      throw new Error('tab(): start this device with { multiInstance: true } first');
    }
    const tab = new Device(this.t, { tabOf: this });
    await tab.start(this.user, { ...this.startOptions, storage: undefined });
    return tab;
  }

  /** The connection dies: requests fail, the Realtime socket closes, the engine is told. */
  offline(): void {
    for (const device of [this, ...this.tabs]) {
      device.net.online = false;
      device.realtimeDown();
      device.online$.next(false);
    }
  }

  online(): void {
    for (const device of [this, ...this.tabs]) {
      device.net.online = true;
      device.realtimeUp();
      device.online$.next(true);
    }
  }

  /**
   * The connection dies without the device noticing (the Wi-Fi is up, nothing gets through):
   * requests fail and the Realtime socket drops, while the engine still believes it is online.
   * Returns how to end it.
   */
  outage(): () => void {
    this.net.online = false;
    this.realtimeDown();
    return () => {
      this.net.online = true;
      this.realtimeUp();
    };
  }

  /** Only the Realtime socket drops (requests still go through), as when the server restarted. */
  realtimeDown(): void {
    this.socketClosed = this.client.realtime.disconnect();
  }

  /** The Realtime socket connects again, once its last close is done. */
  realtimeUp(): void {
    const { realtime } = this.client;
    void this.socketClosed.then(() => {
      // Still offline by then (a short blip that came and went): the next online() connects.
      if (this.net.online) realtime.connect();
    });
  }

  /**
   * The replica as stored right now, collection by collection: every document, deleted ones
   * included (`_deleted`), without RxDB's bookkeeping fields.
   */
  async replica(): Promise<Map<TableName, ReplicaDoc[]>> {
    const storage = this.replicaStorage;
    if (!this.engine || !storage) throw new Error('replica(): the engine is not running');
    const result = new Map<TableName, ReplicaDoc[]>();
    for (const spec of tablesFor(this.user?.role ?? 'visitor', this.tables)) {
      const instance = storage.instances.get(spec.name)?.get(spec.schema.version);
      if (!instance) continue;
      const { documents } = await getChangedDocumentsSince(instance, 1_000_000_000);
      result.set(
        spec.name,
        documents.map((d) => stripped(d as unknown as Record<string, unknown>)),
      );
    }
    return result;
  }

  /** Emits whenever this device's replica stores something. */
  replicaChanges$(): Observable<unknown> {
    const instances = tablesFor(this.user?.role ?? 'visitor', this.tables).flatMap((spec) => {
      const instance = this.replicaStorage?.instances.get(spec.name)?.get(spec.schema.version);
      return instance ? [instance] : [];
    });
    return merge(...instances.map((i) => i.changeStream()));
  }

  async stop(): Promise<void> {
    open.delete(this);
    await this.engine?.close();
    this.engine = null;
    await this.client.removeAllChannels();
  }
}

/** Stops every device still open, newest first (a second tab before the tab it would lead). */
export async function stopDevices(): Promise<void> {
  for (const device of [...open].reverse()) await device.stop();
}

/** Resolves with the first value matching `pred` (the test's own timeout bounds the wait). */
export function until<T>(obs$: Observable<T>, pred: (value: T) => boolean): Promise<T> {
  return firstValueFrom(obs$.pipe(filter(pred)));
}
