import { spawn } from 'node:child_process';
import { configOrExit, mailboxOpen } from '../supabase/local/config.ts';
import { createPlatform } from '../supabase/local/server.ts';
import { seedAccounts } from './seed-accounts.ts';

/** `npm run dev`: the local API plus Vite's dev server with hot reload, pointed at it. */
const config = configOrExit();
const platform = await createPlatform(config);
const apiUrl = await platform.listen();
await seedAccounts({
  url: apiUrl,
  serviceRoleKey: platform.ctx.keys.serviceRoleKey,
  demoPatients: true,
});

const vite = spawn(
  'npx',
  ['vite', '--port', process.env.APP_PORT ?? '5173', '--host', config.host],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      VITE_SUPABASE_URL: apiUrl,
      VITE_SUPABASE_ANON_KEY: platform.ctx.keys.anonKey,
    },
  },
);
process.stdout.write(
  `API ${apiUrl} · mailbox ${mailboxOpen(config) ? `${apiUrl}/mailbox (service_role key)` : 'off'}\n`,
);

const stop = () => {
  vite.kill('SIGTERM');
  void platform.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
