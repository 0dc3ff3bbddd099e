/**
 * The platform under test, in its own process so the load generator does not share its event
 * loop. Prints `{"url","anonKey"}` on one stdout line once it listens.
 */
import { configFromEnv } from '../../supabase/local/config.ts';
import { createLogger } from '../../supabase/local/log.ts';
import { createPlatform } from '../../supabase/local/server.ts';
import { MIGRATIONS_DIR } from './setup.ts';

const databaseUrl = process.env.BENCH_DATABASE_URL;
const config = {
  ...configFromEnv({}),
  apiPort: 0,
  dataDir: undefined,
  databaseUrl,
  logLevel: 'silent' as const,
  migrationsDir: MIGRATIONS_DIR,
  seedFile: undefined,
};
const platform = await createPlatform(config, { log: createLogger('silent') });
const url = await platform.listen(0);
process.stdout.write(`${JSON.stringify({ url, anonKey: platform.ctx.keys.anonKey })}\n`);
process.on('SIGTERM', () => {
  void platform.close().finally(() => process.exit(0));
});
