import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import {
  appointments,
  firstFreeSlot,
  installApp,
  logIn,
  PASSWORD,
  randomCpf,
  serviceClient,
  shot,
  slotButton,
} from './support.ts';

/**
 * Opened offline the next morning (sync/SPEC.md A2), with the product's own hour-long tokens.
 * What the device knows of its token's life is the stored session's `expires_at`: the specs
 * move it (instead of waiting an hour) to put the token inside supabase-js's 90 s refresh
 * margin, or past its whole life — the server's clock is not involved while offline.
 */
/** The old shell waited ~25 s for supabase-js's refresh retries; the replica answers at once. */
const AT_ONCE = { timeout: 8_000 };
const EXPIRED = 'Sua sessão expirou. Entre novamente.';
const OFFLINE = 'Você está offline — suas alterações serão enviadas quando a conexão voltar';

test.describe.configure({ mode: 'serial' });

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

/** The device's view of time moves on: the stored token has `seconds` left (or is past). */
async function storedTokenLeft(page: Page, seconds: number): Promise<void> {
  await page.evaluate((left) => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'));
    if (!key) throw new Error('no stored session');
    const session = JSON.parse(localStorage.getItem(key) ?? 'null') as StoredSession;
    session.expires_at = Math.floor(Date.now() / 1000) + left;
    localStorage.setItem(key, JSON.stringify(session));
  }, seconds);
}

/** A confirmed patient with a complete profile, ready to sign in. */
async function createPatient(): Promise<{ id: string; email: string }> {
  const email = `e2e-token-${randomUUID().slice(0, 8)}@saudeja.example`;
  const { data, error } = await (
    await serviceClient()
  ).auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
    user_metadata: {
      full_name: 'Paciente Token Teste',
      cpf: randomCpf(),
      data_nasc: '1990-03-15',
      whatsapp: '(11) 98765-4321',
      role: 'paciente',
    },
  });
  if (error) throw error;
  return { id: data.user.id, email };
}

async function bookingsOf(patientId: string): Promise<number> {
  const { count, error } = await (
    await serviceClient()
  )
    .from('agendamentos')
    .select('id', { count: 'exact', head: true })
    .eq('patient_id', patientId);
  if (error) throw error;
  return count ?? 0;
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
  const patient = await createPatient();
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
  const patient = await createPatient();
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

  // Inside the margin: supabase-js would refresh the token first, and cannot.
  await context.setOffline(true);
  await storedTokenLeft(page, 60);
  await page.reload();
  await expect(appointments(page)).toHaveCount(1, AT_ONCE);
  await expect(page).toHaveURL(/\/paciente\/dashboard\/consultas$/);
  await expect(page.getByText(OFFLINE)).toBeVisible();

  // Past its whole life: the stored token expired while the app was offline.
  await storedTokenLeft(page, -60);
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
  expect(await bookingsOf(patient.id)).toBe(1);

  await context.setOffline(false);
  // supabase-js retries a refresh that failed offline only after a 60 s cooldown (SPEC.md).
  await expect(page.locator('[data-testid="appointment"][data-sync="pending"]')).toHaveCount(0, {
    timeout: 120_000,
  });
  await expect(appointments(page)).toHaveCount(2);
  await expect(page).toHaveURL(/\/paciente\/dashboard\/consultas$/);
  expect(await secondsLeft(page)).toBeGreaterThan(3000);
  expect(await bookingsOf(patient.id)).toBe(2);
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
  const ended = await (await serviceClient()).auth.admin.signOut(session!.access_token, 'global');
  expect(ended.error).toBeNull();
  await storedTokenLeft(page, -60);
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
  expect(await bookingsOf(patient.id)).toBe(0);

  // The way back: the person is already in the form, and lands where they were.
  const form = page.getByRole('form', { name: 'Entrar' });
  await expect(form.getByLabel('E-mail')).toHaveValue(patient.email);
  await form.getByLabel('Senha', { exact: true }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(/\/paciente\/dashboard\/consultas$/);
  await expect(page.locator('[data-testid="appointment"][data-sync="synced"]')).toHaveCount(1, {
    timeout: 30_000,
  });
  expect(await bookingsOf(patient.id)).toBe(1);
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
