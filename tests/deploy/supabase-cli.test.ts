import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparePlatformSchemas } from '../../supabase/local/bootstrap/index.ts';
import { configFromEnv } from '../../supabase/local/config.ts';
import { openDatabase, type Database } from '../../supabase/local/db/index.ts';
import { createLogger } from '../../supabase/local/log.ts';
import { createPlatform } from '../../supabase/local/server.ts';
import { bookSeededMonday, SEEDED_ANA } from '../support/seeded-booking.ts';

/**
 * The deploy path with the real Supabase CLI pinned in package.json: it accepts
 * supabase/config.toml, and `supabase db push` applies every migration and the seed to a
 * database shaped like a hosted project's — so a file the CLI would refuse fails CI, not a
 * clinic's move to hosted Supabase.
 */
const CLI = join(process.cwd(), 'node_modules/.bin/supabase');

function supabase(args: string[], cwd = process.cwd()) {
  const run = spawnSync(CLI, args, {
    cwd,
    input: '',
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** What the CLI prints when it refuses a config.toml (checked against broken copies below). */
const CONFIG_REFUSED = /invalid config|failed to (read|parse|load) (supabase\/)?config/i;

/**
 * `supabase seed buckets --local` parses and checks the whole file against the CLI's schema
 * and, with no buckets declared, stops there: no Docker, no network. `supabase status` also
 * reads every template's content_path before it looks for Docker's containers.
 */
function cliVerdict(workdir: string) {
  const seed = supabase(['seed', 'buckets', '--local', '--workdir', workdir]);
  const status = supabase(['status', '--workdir', workdir]);
  return { seed, status };
}

describe('the pinned Supabase CLI', () => {
  it('is the version package.json pins', () => {
    const pinned = (
      JSON.parse(readFileSync('package.json', 'utf8')) as {
        devDependencies: Record<string, string>;
      }
    ).devDependencies.supabase;
    expect(supabase(['--version']).output.trim()).toBe(pinned);
  });

  it('accepts supabase/config.toml, templates included', () => {
    const { seed, status } = cliVerdict(process.cwd());
    expect(seed.output).not.toMatch(CONFIG_REFUSED);
    expect(seed.status).toBe(0);
    expect(status.output).not.toMatch(CONFIG_REFUSED);
  }, 120_000);

  it('refuses a broken copy, so the check above can fail', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-config-'));
    try {
      cpSync('supabase/config.toml', join(dir, 'supabase/config.toml'));
      cpSync('supabase/templates', join(dir, 'supabase/templates'), { recursive: true });
      const config = join(dir, 'supabase/config.toml');
      const original = readFileSync(config, 'utf8');

      writeFileSync(config, original.replace('max_rows = 1000', 'max_rows = "mil"'));
      const wrongType = cliVerdict(dir).seed;
      expect(wrongType.status).not.toBe(0);
      expect(wrongType.output).toContain('max_rows');

      writeFileSync(config, original);
      rmSync(join(dir, 'supabase/templates/recovery.html'));
      const missing = cliVerdict(dir).status;
      expect(missing.output).toMatch(CONFIG_REFUSED);
      expect(missing.output).toContain('auth.email.template.recovery.content_path');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe.runIf(process.env.DATABASE_URL)('supabase db push on PostgreSQL', () => {
  const server = process.env.DATABASE_URL ?? '';
  const name = `saudeja_cli_push_${randomBytes(4).toString('hex')}`;
  let db: Database;
  let target: URL;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const { rows } = await admin.query<{ ssl: string }>('show ssl');
    await admin.end();
    target = new URL(server);
    target.pathname = `/${name}`;
    db = await openDatabase({ databaseUrl: target.toString() });
    // What a hosted project has before its first migration: roles, auth, storage, realtime.
    await preparePlatformSchemas(db);
    // The CLI asks for TLS; a server without it (ssl = off) is reached in plain text.
    if (rows[0]?.ssl !== 'on') target.searchParams.set('sslmode', 'disable');
  });

  afterAll(async () => {
    await db?.close();
    const c = new pg.Client({ connectionString: server });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });

  it('applies every migration and the seed; the local platform then books on that database', async () => {
    const push = supabase(['db', 'push', '--db-url', target.toString(), '--include-seed', '--yes']);
    expect(push.output).toContain('Finished supabase db push.');
    expect(push.status).toBe(0);

    const migrations = readdirSync('supabase/migrations')
      .filter((f) => /^\d+_.+\.sql$/.test(f))
      .sort()
      .map((f) => f.slice(0, f.indexOf('_')));
    const recorded = await db.query<{ version: string }>(
      'select version from supabase_migrations.schema_migrations order by version',
    );
    expect(recorded.rows.map((r) => r.version)).toEqual(migrations);
    const seeds = await db.query<{ path: string }>(
      'select path from supabase_migrations.seed_files',
    );
    expect(seeds.rows.map((r) => r.path)).toEqual(['supabase/seed.sql']);

    // The CLI's bookkeeping is the local platform's: nothing left to apply or seed.
    const platform = await createPlatform(
      {
        ...configFromEnv({}),
        apiPort: 0,
        logLevel: 'silent',
        migrationsDir: 'supabase/migrations',
        seedFile: 'supabase/seed.sql',
      },
      { db, log: createLogger('silent') },
    );
    try {
      expect(platform.bootstrap.applied).toEqual([]);
      const url = await platform.listen(0);
      const { anonKey, serviceRoleKey } = platform.ctx.keys;
      const booked = await bookSeededMonday(
        url,
        { anonKey, serviceRoleKey },
        'hospedado@example.com',
      );
      expect(booked.error).toBeNull();
      expect(booked.data).toMatchObject({ medico_id: SEEDED_ANA, status: 'confirmado' });
    } finally {
      await platform.close();
    }
  }, 240_000);
});
