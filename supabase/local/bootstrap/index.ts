import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from '../db/index.ts';
import type { Logger } from '../log.ts';

/**
 * What hosted Supabase has before a project's first migration, in dependency order. Each file
 * is idempotent and runs at every start, so the platform can evolve without its own migrations.
 */
const PLATFORM_SQL = [
  new URL('./roles.sql', import.meta.url),
  new URL('../auth/schema.sql', import.meta.url),
  new URL('../storage/schema.sql', import.meta.url),
  new URL('../realtime/schema.sql', import.meta.url),
];

const MIGRATION_FILE = /^(\d+)_([\w-]+)\.sql$/;

export type BootstrapOptions = {
  migrationsDir: string;
  /**
   * Applied once, after the migrations, and recorded in `supabase_migrations.seed_files` in
   * the same transaction: until it is recorded, every start applies it again.
   */
  seedFile?: string | undefined;
  log: Logger;
};

export type BootstrapResult = { fresh: boolean; applied: string[] };

/** Roles, auth, storage and realtime as hosted Supabase has them before a project's migrations. */
export async function preparePlatformSchemas(db: Database): Promise<void> {
  for (const url of PLATFORM_SQL) {
    await db.transaction((tx) => readFile(url, 'utf8').then((sql) => tx.exec(sql)));
  }
}

export async function bootstrap(db: Database, opts: BootstrapOptions): Promise<BootstrapResult> {
  const seedsRecorded = await hasSeedRecords(db);
  await preparePlatformSchemas(db);

  const done = new Set(
    (
      await db.query<{ version: string }>(
        'select version from supabase_migrations.schema_migrations',
      )
    ).rows.map((r) => r.version),
  );
  const fresh = done.size === 0;
  const files = (await readdir(opts.migrationsDir)).filter((f) => MIGRATION_FILE.test(f)).sort();
  const applied: string[] = [];
  for (const file of files) {
    const [, version = '', name = ''] = MIGRATION_FILE.exec(file) ?? [];
    if (done.has(version)) continue;
    const sql = await readFile(join(opts.migrationsDir, file), 'utf8');
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query(
        'insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)',
        [version, name],
      );
    });
    applied.push(file);
    opts.log.info({ msg: 'migration applied', file });
  }

  if (opts.seedFile) {
    const seed = await readFile(opts.seedFile, 'utf8').catch(() => undefined);
    // Before seeds were recorded, the seed ran right after the first migrations: a database
    // migrated then is taken as seeded rather than seeded twice.
    const assumeSeeded = !seedsRecorded && !fresh;
    if (seed !== undefined) await applySeed(db, opts.log, opts.seedFile, seed, assumeSeeded);
  }
  return { fresh, applied };
}

async function hasSeedRecords(db: Database): Promise<boolean> {
  const { rows } = await db.query<{ present: boolean }>(
    `select to_regclass('supabase_migrations.seed_files') is not null as present`,
  );
  return rows[0]?.present === true;
}

/** Applies the seed and records it in one transaction, unless it is recorded already. */
async function applySeed(
  db: Database,
  log: Logger,
  path: string,
  seed: string,
  assumeSeeded: boolean,
): Promise<void> {
  const hash = createHash('sha256').update(seed).digest('hex');
  const applied = await db.transaction(async (tx) => {
    const { rows } = await tx.query(
      'select 1 from supabase_migrations.seed_files where path = $1',
      [path],
    );
    if (rows.length) return false;
    if (!assumeSeeded) await tx.exec(seed);
    await tx.query('insert into supabase_migrations.seed_files (path, hash) values ($1, $2)', [
      path,
      hash,
    ]);
    return !assumeSeeded;
  });
  if (applied) log.info({ msg: 'seed applied', file: path });
}
