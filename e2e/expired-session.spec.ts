import { expect, test, type Page } from '@playwright/test';
import { admin, PRODUCT_APP_URL, startProduct, type Product } from './short-token-product.ts';
import {
  appointments,
  firstFreeSlot,
  installApp,
  logIn,
  PASSWORD,
  shot,
  slotButton,
} from './support.ts';

/**
 * Opened offline the next morning (sync/SPEC.md A2), against a product whose access tokens
 * live 30 s (JWT_EXPIRY, the platform's minimum): always inside supabase-js's 90 s refresh
 * margin, and past their whole life half a minute after the last refresh.
 */
const JWT_EXPIRY_S = 30;
/** The old shell waited ~25 s for supabase-js's refresh retries; the replica answers at once. */
const AT_ONCE = { timeout: 8_000 };
const EXPIRED = 'Sua sessão expirou. Entre novamente.';
const OFFLINE = 'Você está offline — suas alterações serão enviadas quando a conexão voltar';

let product: Product;

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: PRODUCT_APP_URL });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  product = await startProduct({ jwtExpiry: JWT_EXPIRY_S, name: 'short-token' });
});

test.afterAll(async () => {
  await product?.stop();
});

type StoredSession = { access_token: string; expires_at: number };

/** supabase-js's stored session, as the page keeps it. */
function storedSession(page: Page): Promise<StoredSession | null> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'));
    return key ? (JSON.parse(localStorage.getItem(key) ?? 'null') as StoredSession) : null;
  });
}

/** Seconds left on the stored access token (negative once it is past its life). */
async function secondsLeft(page: Page): Promise<number> {
  const session = await storedSession(page);
  if (!session) throw new Error('no stored session');
  return session.expires_at - Date.now() / 1000;
}

async function bookFirstFreeSlot(page: Page): Promise<void> {
  await page.goto('/agendamentos');
  await slotButton(page, await firstFreeSlot(page)).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await page.getByRole('button', { name: 'Confirmar e Gerar Guia' }).click();
  await expect(page).toHaveURL(/\/agendamento-sucesso$/);
}

async function shotsAt(page: Page, name: string): Promise<void> {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A patient signed in with the app installed (service worker), one booking made online. */
async function installedPatient(page: Page): Promise<{ id: string; email: string }> {
  const patient = await admin(product).createPatient(PASSWORD);
  await logIn(page, patient.email);
  await installApp(page);
  // The doctors' grids are in the replica before the connection goes.
  await page.goto('/agendamentos');
  await firstFreeSlot(page);
  return patient;
}

test('reopened offline inside the refresh margin and past the token’s whole life: the dashboard at once; back online the offline booking is sent once', async ({
  page,
  context,
}) => {
  test.setTimeout(300_000);
  const patient = await admin(product).createPatient(PASSWORD);
  await logIn(page, patient.email);
  // Persistent storage was asked for once signed in; a refusal is said once, gently.
  const persisted = await page.evaluate(() => navigator.storage.persisted());
  if (!persisted) await expect(page.getByTestId('install-hint')).toBeVisible();
  await installApp(page);
  await bookFirstFreeSlot(page);
  await page.goto('/paciente/dashboard/consultas');
  await expect(appointments(page)).toHaveCount(1);
  // The booking and its guide both reached the server before the connection goes.
  await expect(page.locator('[data-testid="appointment"][data-sync="synced"]')).toHaveCount(1, {
    timeout: 30_000,
  });
  await expect(page.getByText(/alteraç(ão|ões) pendente/)).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('install-hint')).toHaveCount(0);

  // Inside the margin: a reload online refreshed the token, which expires within 90 s.
  await page.reload();
  await expect.poll(() => secondsLeft(page)).toBeGreaterThan(JWT_EXPIRY_S - 10);
  await context.setOffline(true);
  const left = await secondsLeft(page);
  expect(left).toBeGreaterThan(0);
  expect(left).toBeLessThan(90);
  await page.reload();
  await expect(appointments(page)).toHaveCount(1, AT_ONCE);
  await expect(page).toHaveURL(/\/paciente\/dashboard\/consultas$/);
  await expect(page.getByText(OFFLINE)).toBeVisible();

  // Past its whole life: the stored token expired while the app was offline.
  await expect.poll(() => secondsLeft(page), { timeout: 60_000 }).toBeLessThan(0);
  await page.reload();
  await expect(appointments(page)).toHaveCount(1, AT_ONCE);
  await expect(page).toHaveURL(/\/paciente\/dashboard\/consultas$/);
  await expect(page.getByText(OFFLINE)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sair' }).first()).toBeVisible();
  await shotsAt(page, '20-painel-offline-token-expirado');

  // A booking made offline with the expired session waits, and is sent once on reconnect.
  await bookFirstFreeSlot(page);
  await expect(page.getByText('Agendamento aguardando envio')).toBeVisible();
  await page.getByRole('link', { name: 'Ir para Minhas Consultas' }).click();
  await expect(page.locator('[data-testid="appointment"][data-sync="pending"]')).toHaveCount(1);
  expect(await admin(product).bookingsOf(patient.id)).toBe(1);

  await context.setOffline(false);
  // supabase-js retries a refresh that failed offline only after a 60 s cooldown (SPEC.md).
  await expect(page.locator('[data-testid="appointment"][data-sync="pending"]')).toHaveCount(0, {
    timeout: 120_000,
  });
  await expect(appointments(page)).toHaveCount(2);
  await expect(page).toHaveURL(/\/paciente\/dashboard\/consultas$/);
  expect(await secondsLeft(page)).toBeGreaterThan(0);
  expect(await admin(product).bookingsOf(patient.id)).toBe(2);
});

test('a refresh token revoked by the server signs out with the message and keeps the unsent booking for the same person', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const patient = await installedPatient(page);
  await context.setOffline(true);
  // An offline booking is two queued changes: the booking and its guide.
  await bookFirstFreeSlot(page);
  await page.getByRole('link', { name: 'Ir para Minhas Consultas' }).click();
  await expect(page.locator('[data-testid="appointment"][data-sync="pending"]')).toHaveCount(1);

  // An administrator ends the person's sessions; the access token then runs out.
  const session = await storedSession(page);
  await admin(product).signOutEverywhere(session!.access_token);
  await expect.poll(() => secondsLeft(page), { timeout: 60_000 }).toBeLessThan(0);
  // The app is opened again once the connection is back.
  await page.goto('about:blank');
  await context.setOffline(false);
  await page.goto('/paciente/dashboard/consultas');

  await expect(page).toHaveURL(/\/acesso-paciente$/);
  await expect(page.getByRole('alert').filter({ hasText: EXPIRED }).first()).toBeVisible();
  await expect(page.getByText(/tem 2 alterações ainda não enviadas neste aparelho/)).toBeVisible({
    timeout: 15_000,
  });
  await shotsAt(page, '21-sessao-expirada');
  expect(await admin(product).bookingsOf(patient.id)).toBe(0);

  await logIn(page, patient.email);
  await page.goto('/paciente/dashboard/consultas');
  await expect(page.locator('[data-testid="appointment"][data-sync="synced"]')).toHaveCount(1, {
    timeout: 30_000,
  });
  expect(await admin(product).bookingsOf(patient.id)).toBe(1);
});

test("'Sair' with a pending change asks first, by keyboard too", async ({ page, context }) => {
  test.setTimeout(120_000);
  await installedPatient(page);
  await context.setOffline(true);
  await bookFirstFreeSlot(page);
  await page.getByRole('link', { name: 'Ir para Minhas Consultas' }).click();
  await expect(page.locator('[data-testid="appointment"][data-sync="pending"]')).toHaveCount(1);

  const signOut = page.getByRole('navigation', { name: 'Principal' }).getByRole('button', {
    name: 'Sair',
  });
  await signOut.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Sair da conta?' });
  await expect(dialog).toBeVisible();
  await expect(
    dialog.getByText('Você tem 2 alterações ainda não enviadas. Sair mesmo assim?'),
  ).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await shotsAt(page, '22-sair-com-pendencias');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/paciente\/dashboard\/consultas$/);
  await expect(page.locator('[data-testid="appointment"][data-sync="pending"]')).toHaveCount(1);

  await signOut.focus();
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Sair mesmo assim' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Área do Paciente' })).toBeVisible();
  await expect(page.getByText(EXPIRED)).toHaveCount(0);
});
