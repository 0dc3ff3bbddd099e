import { configOrExit } from './config.ts';
import { createPlatform } from './server.ts';

/** Runs the local Supabase-compatible API alone (`npm run server`). */
const config = configOrExit();
const platform = await createPlatform(config);
const url = await platform.listen();
platform.ctx.log.info({ msg: 'listening', url, database: platform.ctx.db.kind });

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    platform.ctx.log.info({ msg: 'shutting down', signal });
    void platform.close().then(() => process.exit(0));
  });
}
