import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { logInDoctor, paidAppointment } from './doctor-support.ts';
import {
  appointments,
  firstFreeSlot,
  firstGrid,
  installApp,
  newPatient,
  randomCpf,
  registeredPatient,
  revealSlot,
  serviceClient,
  slotButton,
} from './support.ts';

/**
 * A token refresh whose reply is lost, then an outage longer than the refresh-token reuse
 * interval (10 s), then the network back (docs/sessions.md §1): the person stays signed in
 * with the same session, and what they did offline is sent once. The app is installed (its
 * service worker controls the page), the tokens are the product's own hour-long ones; the
 * stored session's `expires_at` is moved so that supabase-js refreshes now, not in an hour.
 */
const OUTAGE_MS = 15_000;
const EXPIRED = 'Sua sessão expirou. Entre novamente.';

test.describe.configure({ mode: 'serial' });

type StoredSession = { access_token: string; expires_at: number };

function storedSession(page: Page): Promise<StoredSession | null> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'));
    return key ? (JSON.parse(localStorage.getItem(key) ?? 'null') as StoredSession) : null;
  });
}

/** The auth session (`session_id` claim) the stored access token belongs to. */
async function sessionId(page: Page): Promise<string> {
  const session = await storedSession(page);
  if (!session) throw new Error('no stored session');
  const payload = session.access_token.split('.')[1] ?? '';
  return (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { session_id: string })
    .session_id;
}

/**
 * The next refresh reaches the server, which rotates the refresh token and answers; the
 * answer never arrives, and the connection goes with it. Resolves once that happened.
 */
async function loseNextRefreshReply(context: BrowserContext): Promise<{ lost: Promise<void> }> {
  let markLost: () => void = () => undefined;
  const lost = new Promise<void>((resolve) => (markLost = resolve));
  let first = true;
  await context.route('**/auth/v1/token?grant_type=refresh_token', async (route) => {
    if (!first) return route.continue();
    first = false;
    await route.fetch();
    await context.setOffline(true);
    await route.abort('internetdisconnected');
    markLost();
  });
  return { lost };
}

/** Makes supabase-js refresh at once: the stored token has a minute left. */
async function refreshDue(page: Page): Promise<void> {
  await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'));
    if (!key) throw new Error('no stored session');
    const session = JSON.parse(localStorage.getItem(key) ?? 'null') as StoredSession;
    session.expires_at = Math.floor(Date.now() / 1000) + 60;
    localStorage.setItem(key, JSON.stringify(session));
  });
  await page.reload();
}

async function outage(page: Page): Promise<void> {
  await page.waitForTimeout(OUTAGE_MS);
}

test('a patient: refresh reply lost, outage, network back — same session, the offline booking sent once', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const person = newPatient('refresh-perdido');
  await registeredPatient(page, person);
  await installApp(page);
  // A slot days ahead: the booking waits through the outage and supabase-js's cooldown, and a
  // slot within 20 minutes by then would be refused.
  await page.goto('/agendamentos');
  await firstFreeSlot(page);
  await firstGrid(page).getByRole('button', { name: 'Próximos dias' }).click();
  const slot = await firstFreeSlot(page);
  await page.goto('/paciente/dashboard/consultas');
  const before = await sessionId(page);

  const { lost } = await loseNextRefreshReply(context);
  await refreshDue(page);
  await lost;

  // Offline, past the reuse interval: the person books, and is not signed out.
  await page.goto('/agendamentos');
  await revealSlot(page, slot);
  await slotButton(page, slot).click();
  await page.getByRole('button', { name: 'Confirmar e Gerar Guia' }).click();
  await expect(page.getByText('Agendamento aguardando envio')).toBeVisible();
  await page.getByRole('link', { name: 'Ir para Minhas Consultas' }).click();
  await expect(page.locator('[data-testid="appointment"][data-sync="pending"]')).toHaveCount(1);
  await outage(page);

  await context.setOffline(false);
  // supabase-js retries a refresh that failed only after its 60 s cooldown (sync/SPEC.md).
  await expect(page.locator('[data-testid="appointment"][data-sync="synced"]')).toHaveCount(1, {
    timeout: 120_000,
  });
  await expect(page).toHaveURL(/\/paciente\/dashboard\/consultas$/);
  await expect(page.getByText(EXPIRED)).toHaveCount(0);
  expect(await sessionId(page)).toBe(before);
  const admin = await serviceClient();
  const { data: user } = await admin.auth.admin.listUsers();
  const id = user.users.find((u) => u.email === person.email)?.id ?? '';
  const { count } = await admin
    .from('agendamentos')
    .select('id', { count: 'exact', head: true })
    .eq('patient_id', id);
  expect(count).toBe(1);
  await expect(appointments(page)).toHaveCount(1);
});

test('a doctor: refresh reply lost, outage, network back — same session, the offline check-in applied once and never undone', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const booked = await paidAppointment({
    slug: 'ana',
    patientName: 'Paciente Refresh Perdido',
    cpf: randomCpf(),
    // Not 17:30: the financeiro spec books that slot of Ana's.
    time: '16:30',
  });
  await logInDoctor(page, 'ana');
  await installApp(page);
  await page.getByLabel('Buscar por paciente ou protocolo').fill('Paciente Refresh Perdido');
  const card = page.getByRole('tabpanel').getByTestId('doctor-appointment').first();
  await expect(card.getByRole('button', { name: 'Fazer Check-in' })).toBeVisible();
  const before = await sessionId(page);

  const { lost } = await loseNextRefreshReply(context);
  await refreshDue(page);
  await lost;

  await page.getByLabel('Buscar por paciente ou protocolo').fill('Paciente Refresh Perdido');
  await card.getByRole('button', { name: 'Fazer Check-in' }).click();
  await expect(card.getByRole('button', { name: 'Fazer Check-in' })).toHaveCount(0);
  await outage(page);

  await context.setOffline(false);
  await expect(page.getByText('Check-in Realizado!')).toBeVisible({ timeout: 120_000 });
  await expect(page).toHaveURL(/\/medico\/dashboard/);
  await expect(page.getByText(EXPIRED)).toHaveCount(0);
  expect(await sessionId(page)).toBe(before);
  // Applied once, and the card never offers the check-in again.
  const { data, error } = await (
    await serviceClient()
  )
    .from('agendamentos')
    .select('status')
    .eq('id', booked.id)
    .single<{ status: string }>();
  if (error) throw error;
  expect(data.status).toBe('atendido');
  await page.waitForTimeout(3_000);
  await expect(card.getByRole('button', { name: 'Fazer Check-in' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Cancelar consulta' })).toHaveCount(0);
});
