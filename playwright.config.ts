import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './e2e/chromium.ts';
import { coturnCommand } from './tests/support/coturn.ts';

/**
 * E2E runs against `npm start` itself (the real product on PGlite), on ports of its own and a
 * data directory that scripts/e2e.ts wipes first, in Debian's Chromium (no browser download).
 */
const appPort = Number(process.env.E2E_APP_PORT ?? 4173);
const apiPort = Number(process.env.E2E_API_PORT ?? 54399);
export const E2E_APP_URL = `http://127.0.0.1:${appPort}`;
export const E2E_API_URL = `http://127.0.0.1:${apiPort}`;
/**
 * The consultation room's relay: Debian's coturn on loopback (tests/support/coturn.ts), its
 * port derived from the API's so that suites on other ports never share it: 10,000 below it, or
 * above it when that would leave the unprivileged range (an API port under 11,024).
 */
const turnPort = Number(
  process.env.E2E_TURN_PORT ?? (apiPort - 10000 >= 1024 ? apiPort - 10000 : apiPort + 10000),
);
export const E2E_TURN = {
  port: turnPort,
  secret: 'segredo-do-turn-do-e2e',
  realm: 'saudeja.e2e',
  /** coturn's pid file goes here (the room's e2e pauses the relay to cut a network). */
  workDir: 'test-results/coturn',
  urls: [`turn:127.0.0.1:${turnPort}?transport=udp`, `turn:127.0.0.1:${turnPort}?transport=tcp`],
};

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: E2E_APP_URL,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: CHROMIUM_LAUNCH,
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: [
    {
      command: coturnCommand({
        port: E2E_TURN.port,
        secret: E2E_TURN.secret,
        realm: E2E_TURN.realm,
        workDir: E2E_TURN.workDir,
      }),
      // coturn listens on TCP too: the port answers once it is up.
      port: E2E_TURN.port,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
    },
    {
      command: 'npx tsx scripts/start.ts',
      // The app is served last, after the API is up and the PWA is built for it (hashing the
      // sources is async, so the API's /health answers while the build has not even begun).
      url: E2E_APP_URL,
      reuseExistingServer: false,
      timeout: 240_000,
      stdout: 'pipe',
      env: {
        APP_PORT: String(appPort),
        API_PORT: String(apiPort),
        DATA_DIR: '.data/e2e',
        AUTH_RATE_LIMIT: 'false',
        LOG_LEVEL: 'error',
        // The checkout-hold spec shortens the hold; the job then frees the slot within seconds.
        EXPIRY_INTERVAL_MS: '2000',
        TURN_URLS: E2E_TURN.urls.join(','),
        TURN_SECRET: E2E_TURN.secret,
      },
    },
  ],
});
