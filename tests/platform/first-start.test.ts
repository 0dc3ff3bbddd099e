import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_JWT_SECRET } from '../../supabase/local/config.ts';
import { deriveApiKeys } from '../../supabase/local/api-keys.ts';
import { bootstrap } from '../../supabase/local/bootstrap/index.ts';
import { createLogger } from '../../supabase/local/log.ts';
import { freshDatabase } from '../../supabase/local/db/fresh-database.ts';
import { testClient } from '../../sync/testing/index.ts';
import { bookSeededMonday, SEEDED_ANA } from '../support/seeded-booking.ts';

/**
 * A first start killed between its migrations and its seed (kill -9 of the server process,
 * as Ctrl+C at the wrong moment or a power cut) must restart into a bookable product, on
 * the database the suite runs on.
 */

let workDir: string;
let migrationsDir: string;
let database: { env: Record<string, string>; drop(): Promise<void> };

/** PGlite under a fresh DATA_DIR, or a fresh database on the suite's PostgreSQL. */
async function freshStore(): Promise<typeof database> {
  const url = process.env.DATABASE_URL;
  if (!url) return { env: { DATA_DIR: join(workDir, 'data') }, drop: async () => {} };
  const name = `saudeja_first_start_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: target.toString() },
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

type Server = { child: ChildProcess; lines: AsyncIterator<string> };

function startServer(): Server {
  const child = spawn('npx', ['tsx', 'supabase/local/main.ts'], {
    env: {
      ...process.env,
      ...database.env,
      API_PORT: '0',
      MIGRATIONS_DIR: migrationsDir,
      SEED_FILE: 'supabase/seed.sql',
      LOG_LEVEL: 'info',
      JWT_SECRET: DEV_JWT_SECRET,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return { child, lines };
}

/** The first log entry whose `msg` is `msg`. */
async function waitFor(server: Server, msg: string): Promise<Record<string, unknown>> {
  for (;;) {
    const next = await server.lines.next();
    if (next.done) throw new Error(`server ended before logging '${msg}'`);
    if (!next.value.startsWith('{')) continue;
    const entry = JSON.parse(next.value) as Record<string, unknown>;
    if (entry.msg === msg) return entry;
  }
}

function stop(server: Server, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once('exit', () => resolve());
    // npx runs tsx runs node: kill the whole group, as a terminal's Ctrl+C or kill -9 would.
    process.kill(-server.child.pid!, signal);
  });
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'saudeja-first-start-'));
  migrationsDir = join(workDir, 'migrations');
  await cp('supabase/migrations', migrationsDir, { recursive: true });
  // Holds the first start right after its first migration, where the test kills it.
  await writeFile(join(migrationsDir, '20260601000050_hold.sql'), 'select pg_sleep(600);');
  database = await freshStore();
});

afterAll(async () => {
  await database.drop();
  await rm(workDir, { recursive: true, force: true });
});

describe('a first start killed after its first migration', () => {
  it('restarts into a product with its doctors, their availability and bookings', async () => {
    const first = startServer();
    expect(await waitFor(first, 'migration applied')).toMatchObject({
      file: '20260601000000_core_schema.sql',
    });
    await stop(first, 'SIGKILL');

    await rm(join(migrationsDir, '20260601000050_hold.sql'));
    const second = startServer();
    try {
      const { url } = (await waitFor(second, 'listening')) as { url: string };
      const { anonKey, serviceRoleKey } = await deriveApiKeys(DEV_JWT_SECRET);

      const anon = testClient(url, anonKey);
      const { data: doctors } = await anon
        .from('medicos')
        .select('id, agenda_medico(id)')
        .order('id')
        .returns<{ id: string; agenda_medico: unknown[] }[]>();
      expect(doctors?.map((d) => d.id)).toEqual([
        SEEDED_ANA,
        'a0000000-0000-4000-8000-000000000002',
      ]);
      expect(doctors?.every((d) => d.agenda_medico.length > 0)).toBe(true);

      const booked = await bookSeededMonday(
        url,
        { anonKey, serviceRoleKey },
        'primeira-consulta@example.com',
      );
      expect(booked.error).toBeNull();
      expect(booked.data).toMatchObject({ medico_id: SEEDED_ANA, status: 'confirmado' });
    } finally {
      await stop(second, 'SIGTERM');
    }
  }, 120_000);
});

describe('a database seeded before seeds were recorded', () => {
  it('is not seeded a second time', async () => {
    const { db, dispose } = await freshDatabase();
    try {
      const log = createLogger('silent');
      const opts = { migrationsDir: 'supabase/migrations', seedFile: 'supabase/seed.sql', log };
      await bootstrap(db, opts);
      const count = async () =>
        (await db.query<{ n: number }>('select count(*)::int as n from public.agenda_medico'))
          .rows[0]!.n;
      const seeded = await count();
      expect(seeded).toBeGreaterThan(0);
      // As the bootstrap before seed records left a database.
      await db.exec('drop table supabase_migrations.seed_files');
      await bootstrap(db, opts);
      await bootstrap(db, opts);
      expect(await count()).toBe(seeded);
    } finally {
      await dispose();
    }
  }, 60_000);
});
