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
  /** Applied once, right after the first migrations of an empty database. */
  seedFile?: string | undefined;
  log: Logger;
};

export type BootstrapResult = { fresh: boolean; applied: string[] };

export async function bootstrap(db: Database, opts: BootstrapOptions): Promise<BootstrapResult> {
  for (const url of PLATFORM_SQL) {
    await db.transaction((tx) => readFile(url, 'utf8').then((sql) => tx.exec(sql)));
  }

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

  if (fresh && opts.seedFile) {
    const seed = await readFile(opts.seedFile, 'utf8').catch(() => undefined);
    if (seed !== undefined) {
      await db.transaction((tx) => tx.exec(seed));
      opts.log.info({ msg: 'seed applied', file: opts.seedFile });
    }
  }
  return { fresh, applied };
}
