import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from './index.ts';

/**
 * A fresh, empty database for one test file: in-memory PGlite by default (in a new directory
 * with `onDisk`, as `npm start` runs it), or — when DATABASE_URL is set (`npm run test:pg`) — a
 * new database on that PostgreSQL server, dropped again by `dispose`.
 */
export async function freshDatabase(
  opts: { onDisk?: boolean } = {},
): Promise<{ db: Database; dispose: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url && opts.onDisk) {
    const dataDir = await mkdtemp(join(tmpdir(), 'saudeja-test-'));
    const db = await openDatabase({ dataDir });
    return {
      db,
      dispose: async () => {
        await db.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  if (!url) {
    const db = await openDatabase({});
    return { db, dispose: () => db.close() };
  }
  const name = `saudeja_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: target.toString() });
  return {
    db,
    dispose: async () => {
      await db.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
