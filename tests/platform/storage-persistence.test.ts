import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../supabase/local/config.ts';
import type { Database } from '../../supabase/local/db/index.ts';
import { createLogger } from '../../supabase/local/log.ts';
import { createPlatform } from '../../supabase/local/server.ts';
import { freshDatabase } from '../../supabase/local/db/fresh-database.ts';
import { testClient } from '../../sync/testing/index.ts';

/**
 * `npm start` keeps uploads across restarts: the bytes live in the database, so a server
 * started again on the same PGlite data directory (or PostgreSQL database) still serves them.
 */
describe('storage across a restart', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function target(): Promise<{ dataDir?: string; db?: Database }> {
    if (process.env.DATABASE_URL) {
      const fresh = await freshDatabase();
      cleanups.push(() => fresh.dispose());
      return { db: fresh.db };
    }
    const dataDir = await mkdtemp(join(tmpdir(), 'storage-restart-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    return { dataDir };
  }

  async function start(where: { dataDir?: string; db?: Database }) {
    const config = {
      ...configFromEnv({}),
      apiPort: 0,
      dataDir: where.dataDir,
      databaseUrl: undefined,
      logLevel: 'silent' as const,
      migrationsDir: 'tests/platform/sample-migrations',
      seedFile: undefined,
    };
    const platform = await createPlatform(config, {
      ...(where.db ? { db: where.db } : {}),
      log: createLogger('silent'),
    });
    const url = await platform.listen(0);
    platform.ctx.config.apiExternalUrl = url;
    return { platform, url, admin: testClient(url, platform.ctx.keys.serviceRoleKey) };
  }

  // Two full on-disk boots: slower than the default test budget on a loaded machine.
  it('serves an object uploaded before the restart', { timeout: 120_000 }, async () => {
    const where = await target();
    const first = await start(where);
    const bytes = Buffer.from('persisted bytes');
    const uploaded = await first.admin.storage.from('docs').upload('kept/file.bin', bytes, {
      contentType: 'application/octet-stream',
    });
    expect(uploaded.error).toBeNull();
    await first.platform.close();

    const second = await start(where);
    try {
      const { data, error } = await second.admin.storage.from('docs').download('kept/file.bin');
      expect(error).toBeNull();
      expect(Buffer.from(await data!.arrayBuffer())).toEqual(bytes);
    } finally {
      await second.platform.close();
    }
  });
});
