import { expect, test, type Page } from '@playwright/test';
import { logInDoctor, paidAppointment } from './doctor-support.ts';
import { firstFreeSlot, installApp, randomCpf, shot, slotButton } from './support.ts';

/** The replica engine's chunk (sync/index.ts, loaded by src/session/sync-provider.tsx). */
const ENGINE_CHUNK = /\/assets\/sync-[\w-]+\.js$/;

/** supabase-js's chunk, told by auth-js's client header in its body (chunk names may change). */
const SUPABASE_JS = 'gotrue-js/';

function grids(page: Page) {
  return page.getByRole('region', { name: 'HORA MARCADA' });
}

/**
 * Holds back the scripts matching `url` (and `body`, when given) until `release()`; `asked()`
 * tells whether the page has requested one.
 */
async function holdScripts(page: Page, url: RegExp, body?: (text: string) => boolean) {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  await page.route(url, async (route) => {
    const response = body ? await route.fetch() : null;
    if (!response || body?.(await response.text())) {
      asked = true;
      await held;
    }
    await (response ? route.fulfill({ response }) : route.continue());
  });
  return { release, asked: () => asked };
}

test('the booking page paints doctors and free slots before the replica engine, which then takes over in place', async ({
  page,
}) => {
  const engine = await holdScripts(page, ENGINE_CHUNK);
  await page.goto('/agendamentos');
  await expect(page.getByRole('heading', { name: 'Dra. Ana Ribeiro' })).toBeVisible();
  const slot = await firstFreeSlot(page);
  await expect(grids(page).first()).toHaveAttribute('data-source', 'first');
  // The engine is asked for only after that paint, and is still held back here.
  await expect.poll(engine.asked).toBe(true);
  await expect(page.getByTestId('sync-indicator')).toHaveCount(0);
  const before = await slotButton(page, slot).boundingBox();

  engine.release();
  await expect(grids(page).first()).toHaveAttribute('data-source', 'replica');
  await expect(grids(page).nth(1)).toHaveAttribute('data-source', 'replica');
  await expect(page.getByTestId('sync-indicator')).toBeAttached();
  // The same slot, in the same place: the replica drew the grid the first response drew.
  expect(await slotButton(page, slot).boundingBox()).toEqual(before);
  // Nor did anything else move on its own since the first paint (the sync line's room was
  // there already): the layout shifts CLS counts, those not caused by the test's clicks.
  const shifted = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean };
        new PerformanceObserver((list) =>
          resolve(
            (list.getEntries() as Shift[])
              .filter((shift) => !shift.hadRecentInput)
              .reduce((sum, shift) => sum + shift.value, 0),
          ),
        ).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(0), 500);
      }),
  );
  expect(shifted).toBe(0);
});

test("a visitor's home page never loads supabase-js", async ({ page }) => {
  const supabaseScripts: string[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script' || !response.ok()) return;
    if ((await response.text()).includes(SUPABASE_JS)) supabaseScripts.push(response.url());
  });
  await page.goto('/');
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(supabaseScripts).toEqual([]);
});

test('the booking page paints its doctors and slots without supabase-js, which comes with the replica', async ({
  page,
}) => {
  const supabase = await holdScripts(page, /\/assets\/[\w-]+\.js$/, (text) =>
    text.includes(SUPABASE_JS),
  );
  await page.goto('/agendamentos');
  await firstFreeSlot(page);
  await expect(grids(page).first()).toHaveAttribute('data-source', 'first');
  await expect.poll(supabase.asked).toBe(true);
  supabase.release();
  await expect(grids(page).first()).toHaveAttribute('data-source', 'replica');
});

test('a returning visitor offline still sees the doctors and slots kept on the device', async ({
  page,
  context,
}) => {
  await page.goto('/agendamentos');
  await expect(grids(page).first()).toHaveAttribute('data-source', 'replica');
  await installApp(page);
  await expect(grids(page).first()).toHaveAttribute('data-source', 'replica');

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dra. Ana Ribeiro' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dr. Paulo Mendes' })).toBeVisible();
  await firstFreeSlot(page);
  await expect(grids(page).first()).toHaveAttribute('data-source', 'replica');
});

test('scripts arrive compressed and the service worker keeps them decoded', async ({ page }) => {
  const encodings = new Map<string, string | undefined>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') {
      encodings.set(new URL(response.url()).pathname, response.headers()['content-encoding']);
    }
  });
  await page.goto('/');
  await installApp(page);
  // index-*.js is a one-line entry that starts the app's code (vite.config.ts:
  // strictExecutionOrder), which index.html preloads beside the bundler's runtime.
  const preloaded = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map(
      (l) => new URL(l.href).pathname,
    ),
  );
  const entry = preloaded.find((p) => !p.includes('rolldown-runtime') && encodings.has(p));
  expect(entry).toBeDefined();
  expect(encodings.get(entry!)).toBe('br');

  // The precache fetched the same script (brotli on the wire) and stored it as JavaScript.
  const cached = await page.evaluate(async (path) => {
    for (const name of await caches.keys()) {
      const response = await (await caches.open(name)).match(path, { ignoreSearch: true });
      if (response) return (await response.text()).slice(0, 200);
    }
    return null;
  }, entry!);
  expect(cached).not.toBeNull();
  expect(cached).toMatch(/import|function|const|var/);
});

test("index.html itself asks for the booking page's code and first reads, which the app then takes without asking again", async ({
  page,
}) => {
  const entry = await holdScripts(page, /\/assets\/index-[\w-]+\.js$/);
  const firstReads: string[] = [];
  const pageCode: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    const table = /^\/rest\/v1\/(medicos|agenda_medico|agenda_ocupada)$/.exec(url.pathname);
    // The replica's pulls read whole rows (select=*); the first response names its columns.
    if (request.method() === 'GET' && table && url.searchParams.get('select') !== '*') {
      firstReads.push(table[1]!);
    }
    if (/^\/assets\/booking-[\w-]+\.js$/.test(url.pathname)) pageCode.push(url.pathname);
  });
  // Not waiting for 'load': the held script holds it back.
  await page.goto('/agendamentos', { waitUntil: 'commit' });
  // The app's own script has not run: what is on the wire was asked for by the page's HTML.
  await expect.poll(entry.asked).toBe(true);
  await expect
    .poll(() => [...firstReads].sort())
    .toEqual(['agenda_medico', 'agenda_ocupada', 'medicos']);
  await expect.poll(() => pageCode.length).toBeGreaterThan(0);

  entry.release();
  await firstFreeSlot(page);
  await expect(grids(page).first()).toHaveAttribute('data-source', 'replica');
  expect(firstReads).toHaveLength(3);
});

/** The page's modulepreload links whose path matches `pattern`. */
function preloadsOf(page: Page, pattern: string): Promise<string[]> {
  return page.evaluate(
    (p) =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')]
        .map((l) => new URL(l.href).pathname)
        .filter((path) => new RegExp(p).test(path)),
    pattern,
  );
}

test('a dashboard opened directly, or one of its sections, has its code asked for by index.html, and the router adds no second request for it', async ({
  page,
}) => {
  const preloads = (pattern: string) => preloadsOf(page, pattern);
  const entry = await holdScripts(page, /\/assets\/index-[\w-]+\.js$/);
  await page.goto('/medico/dashboard/hoje', { waitUntil: 'commit' });
  await expect.poll(entry.asked).toBe(true);
  // The app's own script has not run: these links are index.html's.
  await expect.poll(() => preloads('^/assets/doctor-dashboard-')).toHaveLength(1);
  // Not the engine: the dashboard paints without it on a device that has no replica
  // (src/features/doctor-dashboard/first-consultas.ts); with one, index.html asks for it too
  // (the last test).
  expect(await preloads('^/assets/sync-')).toHaveLength(0);
  expect(await preloads('^/assets/patient-dashboard-')).toHaveLength(0);
  entry.release();
  // Signed out, the guard sends the visitor to the doctors' login, after the route's code ran.
  await page.waitForURL('**/acesso-medico');
  expect(await preloads('^/assets/doctor-dashboard-')).toHaveLength(1);

  await page.goto('/paciente/dashboard', { waitUntil: 'commit' });
  await expect.poll(() => preloads('^/assets/patient-dashboard-')).toHaveLength(1);
  expect(await preloads('^/assets/doctor-dashboard-')).toHaveLength(0);
});

test("the doctor's dashboard on a device without the replica paints its first consultas before the engine, read-only, and the replica takes over in place", async ({
  browser,
}) => {
  const appointment = await paidAppointment({
    slug: 'paulo',
    patientName: 'Helena Primeira Leitura',
    cpf: randomCpf(),
    // Dr. Paulo works mornings on Mondays, Wednesdays and Fridays, afternoons on Tuesdays and
    // Thursdays (supabase/seed.sql).
    time: (day) => (day.dayOfWeek % 2 === 0 ? '17:00' : '11:00'),
  });
  // Signed in on another device: this one has the session only (localStorage), no replica.
  const login = await browser.newContext();
  await logInDoctor(await login.newPage(), 'paulo');
  const storageState = await login.storageState();
  await login.close();
  const context = await browser.newContext({ storageState, serviceWorkers: 'block' });
  const page = await context.newPage();
  const engine = await holdScripts(page, ENGINE_CHUNK);

  await page.goto('/medico/dashboard');
  const results = page.getByTestId('consultas-results');
  await expect(results).toHaveAttribute('data-source', 'first');
  const card = page.locator(`[data-appointment-id="${appointment.id}"]`);
  await expect(card.getByRole('heading', { name: 'Helena Primeira Leitura' })).toBeVisible();
  // The engine is asked for only after that paint, and is held back here: read-only.
  await expect.poll(engine.asked).toBe(true);
  const checkIn = card.getByRole('button', { name: 'Fazer Check-in' });
  await expect(checkIn).toBeDisabled();
  await expect(page.getByLabel('Buscar por paciente ou protocolo')).toBeDisabled();
  for (const [name, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['mobile', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await shot(page, `doctor-first-read-${name}`);
  }
  const tabs = await page.getByRole('tab').allTextContents();
  const before = await card.boundingBox();

  engine.release();
  await expect(results).toHaveAttribute('data-source', 'replica', { timeout: 30_000 });
  await expect(checkIn).toBeEnabled();
  await expect(page.getByLabel('Buscar por paciente ou protocolo')).toBeEnabled();
  // The same counts and the same card in the same place: the replica drew what the first
  // read drew.
  expect(await page.getByRole('tab').allTextContents()).toEqual(tabs);
  expect(await card.boundingBox()).toEqual(before);
  for (const [name, viewport] of [
    ['mobile', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await shot(page, `doctor-replica-${name}`);
  }

  // Now the device holds the replica: reopened, index.html asks for the engine beside the
  // dashboard's code, before the app's own script has run.
  const entry = await holdScripts(page, /\/assets\/index-[\w-]+\.js$/);
  await page.goto('/medico/dashboard/hoje', { waitUntil: 'commit' });
  await expect.poll(entry.asked).toBe(true);
  await expect.poll(() => preloadsOf(page, '^/assets/sync-')).toHaveLength(1);
  entry.release();
  await expect(page.getByRole('heading', { name: 'Hoje' })).toBeVisible();
  await context.close();
});
