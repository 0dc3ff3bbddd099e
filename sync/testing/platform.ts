import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { configFromEnv, type PlatformConfig } from '../../supabase/local/config.ts';
import { createPlatform, type Platform } from '../../supabase/local/server.ts';
import { createLogger, type Logger } from '../../supabase/local/log.ts';
import { freshDatabase } from '../../supabase/local/db/fresh-database.ts';

export type TestPlatform = {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  /** The running server; a new object after each `restart()`. */
  readonly platform: Platform;
  /** A new, unmodified supabase-js client with its own in-memory session storage. */
  client(key?: string): SupabaseClient;
  /** A client acting as the service role (admin API, bypasses RLS). */
  admin: SupabaseClient;
  /**
   * Stops the server and starts it again on the same port over the same database, like the
   * server process restarting: open connections (Realtime sockets, requests) die, data stays.
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
};

export type TestPlatformOptions = {
  /** Defaults to the app's migrations; the platform conformance suite uses its own sample. */
  migrationsDir?: string;
  seedFile?: string;
  config?: Partial<PlatformConfig>;
  /** Silent unless a test reads the log. */
  log?: Logger;
  /** PGlite in a data directory, as `npm start` runs it, instead of in memory. */
  onDisk?: boolean;
};

/** The product's demo data: doctors, their weekly grids, the consultation service. */
export const SEED_FILE = 'supabase/seed.sql';

/** Sessions live in memory per client, so several users can act in one test. */
export function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
    keys: () => [...items.keys()],
  };
}

export function testClient(url: string, key: string): SupabaseClient {
  return createClient(url, key, {
    auth: {
      storage: memoryStorage(),
      autoRefreshToken: false,
      persistSession: true,
      detectSessionInUrl: false,
    },
    // Node 20 has no global WebSocket; supabase-js needs one for Realtime (docs/platform-wire.md §0).
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  }) as SupabaseClient;
}

/**
 * Starts the whole local platform (supabase/local) in this process on a free port, on a fresh
 * database: in-memory PGlite, or a new database on the PostgreSQL server of DATABASE_URL
 * (`npm run test:pg`), dropped again by `stop()`.
 */
export async function startTestPlatform(opts: TestPlatformOptions = {}): Promise<TestPlatform> {
  const { db, dispose } = await freshDatabase({ onDisk: opts.onDisk ?? false });
  const config: PlatformConfig = {
    ...configFromEnv({}),
    apiPort: 0,
    dataDir: undefined,
    databaseUrl: undefined,
    logLevel: 'silent',
    autoconfirm: false,
    rateLimit: false,
    migrationsDir: opts.migrationsDir ?? 'supabase/migrations',
    seedFile: opts.seedFile,
    ...opts.config,
  };
  const log = opts.log ?? createLogger('silent');
  // The database is handed in, so closing a server keeps it: a restart reopens the same data.
  let platform = await createPlatform(config, { db, log });
  const url = await platform.listen(0);
  const port = Number(new URL(url).port);
  // Links in e-mails and the JWT issuer must name the port actually bound.
  platform.ctx.config.apiExternalUrl = url;
  const { anonKey, serviceRoleKey } = platform.ctx.keys;
  const clients: SupabaseClient[] = [];
  const client = (key = anonKey) => {
    const c = testClient(url, key);
    clients.push(c);
    return c;
  };
  return {
    url,
    anonKey,
    serviceRoleKey,
    get platform() {
      return platform;
    },
    client,
    admin: client(serviceRoleKey),
    async restart() {
      await platform.close();
      platform = await createPlatform(platform.ctx.config, { db, log });
      await platform.listen(port);
    },
    async stop() {
      await Promise.allSettled(clients.map((c) => c.removeAllChannels()));
      await platform.close();
      await dispose();
    },
  };
}

/**
 * The platform a sync test runs against: `startTestPlatform` with the product's seed by
 * default (`seed: false` for an empty database, only migrations applied).
 */
export function startPlatform(
  opts: Omit<TestPlatformOptions, 'seedFile'> & { seed?: boolean } = {},
): Promise<TestPlatform> {
  const { seed = true, ...rest } = opts;
  return startTestPlatform({ ...rest, seedFile: seed ? SEED_FILE : undefined });
}
