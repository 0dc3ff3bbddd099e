import { configOrExit, mailboxOpen, type PlatformConfig } from '../supabase/local/config.ts';
import { logFlushed } from '../supabase/local/log.ts';
import { createPlatform } from '../supabase/local/server.ts';
import { buildAppIfNeeded } from './lib/build-app.ts';
import { createAppServer, listenApp } from './lib/app-server.ts';
import { startScheduler } from './scheduler.ts';
import { seedAccounts, type SeededAccount } from './seed-accounts.ts';

/**
 * `npm start`: the whole product on one machine — the Supabase-compatible API (PGlite under
 * DATA_DIR, or PostgreSQL with DATABASE_URL), the built PWA, the demo accounts — and prints
 * where everything is.
 */
const config = configOrExit();

/** EXPIRY_INTERVAL_MS when it is a sane number of milliseconds, else once a minute. */
function expiryIntervalMs(value: string | undefined): number {
  const ms = Number(value);
  return Number.isInteger(ms) && ms >= 500 ? ms : 60_000;
}
const appPort = Number(process.env.APP_PORT ?? 5173);
/** Where the built PWA goes; a second product on other ports needs a directory of its own. */
const distDir = process.env.APP_DIST_DIR ?? 'dist';
const platform = await createPlatform(config);
const apiUrl = await platform.listen();
const { anonKey, serviceRoleKey, publishableKey, secretKey } = platform.ctx.keys;

await buildAppIfNeeded({ VITE_SUPABASE_URL: apiUrl, VITE_SUPABASE_ANON_KEY: anonKey }, distDir);
const appServer = await listenApp(createAppServer(distDir), appPort, config.host);
const appUrl = `http://${config.host}:${appPort}`;

const accounts = await seedAccounts({
  url: apiUrl,
  serviceRoleKey,
  demoPatients: !config.databaseUrl,
});
const stopScheduler = startScheduler({
  url: apiUrl,
  serviceRoleKey,
  // Expiry and reminders. The e2e suite runs them every few seconds so a short checkout hold
  // frees its slot soon.
  intervalMs: expiryIntervalMs(process.env.EXPIRY_INTERVAL_MS),
  onError: (m) => process.stderr.write(`${m}\n`),
});

/** Where mail goes, and why the dev mailbox is off when it is. */
function mailboxLine(config: PlatformConfig, apiUrl: string): string {
  if (config.smtpUrl) return 'off: mail goes out through SMTP_URL';
  if (mailboxOpen(config)) {
    return `${apiUrl}/mailbox   (development only: sign-up confirmations and password resets land here; the page asks for the service_role key)`;
  }
  if (config.mailbox === 'off')
    return 'off (MAILBOX=off): mail stays unread in the database; set SMTP_URL to send real mail';
  return `off: the API listens on ${config.host}, beyond this machine. Set SMTP_URL to send real mail (MAILBOX=on serves the dev mailbox anyway)`;
}

// The start-up's log lines first, so the banner is never cut by them.
await logFlushed();

const loginLine = (a: SeededAccount) =>
  `  ${a.label.padEnd(28)} ${a.email.padEnd(32)} ${a.note ?? a.password ?? '(password printed at first start)'}`;

process.stdout.write(`
Saúde Já is running
  App        ${appUrl}
  API        ${apiUrl}
  Mailbox    ${mailboxLine(config, apiUrl)}
  Database   ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}/`}
  publishable key   ${publishableKey}
  secret key        ${secretKey}
  anon key          ${anonKey}
  service_role key  ${serviceRoleKey}

Demo logins (doctors must choose a new password at first login)
${[...accounts.doctors, ...accounts.patients].map(loginLine).join('\n')}

Press Ctrl+C to stop.
`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    stopScheduler();
    appServer.close();
    void platform.close().then(() => process.exit(0));
  });
}
