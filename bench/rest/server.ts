/**
 * The platform under test, in its own process so the load generator does not share its event
 * loop, plus a bare server on the same HTTP stack (Hono on @hono/node-server) that answers a
 * fixed body: what one HTTP round trip costs with no work behind it. Prints
 * `{"url","floorUrl","anonKey"}` on one stdout line once both listen.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
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
const floor = new Hono().get('/', (c) => c.body('[]', 200, { 'content-type': 'application/json' }));
const floorUrl = await new Promise<string>((resolve) => {
  const server = serve({ fetch: floor.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
    resolve(`http://127.0.0.1:${info.port}`),
  );
  process.on('SIGTERM', () => server.close());
});
process.stdout.write(`${JSON.stringify({ url, floorUrl, anonKey: platform.ctx.keys.anonKey })}\n`);
process.on('SIGTERM', () => {
  void platform.close().finally(() => process.exit(0));
});
