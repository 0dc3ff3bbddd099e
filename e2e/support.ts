import { randomInt, randomUUID } from 'node:crypto';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { E2E_API_URL } from '../playwright.config.ts';
import { DEV_JWT_SECRET } from '../supabase/local/config.ts';
import { deriveApiKeys } from '../supabase/local/api-keys.ts';

export const PASSWORD = 'senha-forte-123';
export const SCREENSHOTS = 'test-results/e2e/screenshots';

export type Patient = {
  fullName: string;
  cpf: string;
  birthDate: string;
  whatsapp: string | null;
  email: string;
};

/** A CPF with valid check digits, different on every call (the column is unique). */
export function randomCpf(): string {
  const base = Array.from({ length: 9 }, () => randomInt(10));
  if (base.every((d) => d === base[0])) base[0] = (base[0]! + 1) % 10;
  const digit = (digits: number[]) => {
    const sum = digits.reduce((acc, d, i) => acc + d * (digits.length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  const first = digit(base);
  return [...base, first, digit([...base, first])].join('');
}

export function newPatient(tag: string, opts: { whatsapp?: boolean } = {}): Patient {
  return {
    fullName: `Paciente ${tag} Teste`,
    cpf: randomCpf(),
    birthDate: '15/03/1990',
    whatsapp: opts.whatsapp === false ? null : '11987654321',
    email: `e2e-${tag}-${randomUUID().slice(0, 8)}@saudeja.example`,
  };
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}

/** The sign-up form of /acesso-paciente ('Cadastre-se'). */
export async function openSignup(page: Page): Promise<Locator> {
  await page.goto('/acesso-paciente');
  await page.getByRole('button', { name: 'Cadastre-se' }).click();
  return page.getByRole('form', { name: 'Criar conta' });
}

export async function fillSignup(form: Locator, p: Patient, password = PASSWORD): Promise<void> {
  await form.getByLabel('Nome completo').fill(p.fullName);
  await form.getByLabel('CPF').pressSequentially(p.cpf);
  await form.getByLabel('Data de nascimento').pressSequentially(p.birthDate.replace(/\D/g, ''));
  if (p.whatsapp) await form.getByLabel('WhatsApp (opcional)').pressSequentially(p.whatsapp);
  await form.getByLabel('E-mail').fill(p.email);
  await form.getByLabel('Senha', { exact: true }).fill(password);
  await form.getByRole('checkbox', { name: /Li e aceito/ }).check();
}

export async function signUp(page: Page, p: Patient): Promise<void> {
  const form = await openSignup(page);
  await fillSignup(form, p);
  await form.getByRole('button', { name: 'Criar Conta' }).click();
  await expect(page).toHaveURL(/\/cadastro-sucesso$/);
  await expect(page.getByText('Cadastro realizado com sucesso!')).toBeVisible();
}

type Mail = { to: string; subject: string; links: string[] };

/** The newest mail to `email` in the dev mailbox, polled until it arrives. */
export async function latestMail(request: APIRequestContext, email: string): Promise<Mail> {
  let mail: Mail | undefined;
  await expect
    .poll(
      async () => {
        // npm start runs with the dev secret in e2e, so its service-role key is known here.
        const { serviceRoleKey } = await deriveApiKeys(DEV_JWT_SECRET);
        const res = await request.get(`${E2E_API_URL}/mailbox/api`, {
          params: { to: email },
          headers: { apikey: serviceRoleKey },
        });
        const list = (await res.json()) as Mail[];
        mail = list[0];
        return mail?.links.length ?? 0;
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThan(0);
  return mail!;
}

/** Follows the confirmation link: /auth/v1/verify answers 303 to /acesso-paciente#access_token…. */
export async function confirmEmail(page: Page, email: string): Promise<void> {
  const mail = await latestMail(page.request, email);
  const link = mail.links.find((l) => l.includes('/verify')) ?? mail.links[0]!;
  await page.goto(link);
}

export async function logIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/acesso-paciente');
  const form = page.getByRole('form', { name: 'Entrar' });
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Senha', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(/\/paciente\/dashboard/);
}

/** Sign up, confirm through the mailbox, and end signed in on the dashboard. */
export async function registeredPatient(page: Page, p: Patient): Promise<void> {
  await signUp(page, p);
  await confirmEmail(page, p.email);
  await expect(page).toHaveURL(/\/paciente\/dashboard/);
}

export type SlotChoice = { day: string; time: string };

/** The first doctor's availability grid on /agendamentos (the seed's Dra. Ana Ribeiro). */
export function firstGrid(page: Page): Locator {
  return page.getByRole('region', { name: 'HORA MARCADA' }).first();
}

/**
 * How many grid pages a search walks. Every spec books the first doctor's earliest free slots,
 * so by the end of a run the first page (four days) can be all taken.
 */
const GRID_PAGES_SEARCHED = 4;

/** Waits for the grid's days to replace its loading skeleton. */
async function gridLoaded(grid: Locator): Promise<void> {
  await expect(grid.getByRole('listitem').first()).toBeVisible();
  await expect(grid.getByTestId('grid-skeleton')).toHaveCount(0);
}

/** Shows every slot of the page's days ('Ver mais horários' on each day that hides some). */
async function expandDays(grid: Locator): Promise<void> {
  const more = grid.getByRole('button', { name: 'Ver mais horários' });
  for (let n = await more.count(); n > 0; n--) await more.first().click();
}

/**
 * The first free slot of the first doctor's grid, from the page it is on: each day expanded,
 * then the next pages. The grid is left showing it.
 */
export async function firstFreeSlot(page: Page): Promise<SlotChoice> {
  const grid = firstGrid(page);
  const slot = grid.locator('ul[aria-label] button:not([disabled])').first();
  await gridLoaded(grid);
  for (let searched = 1; ; searched++) {
    await expandDays(grid);
    if ((await slot.count()) > 0 || searched === GRID_PAGES_SEARCHED) break;
    await grid.getByRole('button', { name: 'Próximos dias' }).click();
  }
  await expect(slot).toBeVisible();
  const day = await slot.locator('xpath=ancestor::ul[1]').getAttribute('aria-label');
  const time = (await slot.textContent())?.trim() ?? '';
  return { day: day ?? '', time };
}

/**
 * Brings `choice` into view on another page's first grid (another person's screen): back to
 * the first page, on to the slot's day, and that day expanded.
 */
export async function revealSlot(page: Page, choice: SlotChoice): Promise<void> {
  const grid = firstGrid(page);
  await gridLoaded(grid);
  const previous = grid.getByRole('button', { name: 'Dias anteriores' });
  while (await previous.isEnabled()) await previous.click();
  const slots = `ul[aria-label="${choice.day}"]`;
  const day = grid.locator(slots);
  for (let searched = 1; (await day.count()) === 0 && searched < GRID_PAGES_SEARCHED; searched++)
    await grid.getByRole('button', { name: 'Próximos dias' }).click();
  const more = grid
    .getByRole('listitem')
    .filter({ has: page.locator(slots) })
    .getByRole('button', { name: 'Ver mais horários' });
  if ((await more.count()) > 0) await more.click();
  await expect(day).toBeVisible();
}

/** The slot button of `choice` on the first grid, as the page shows it now. */
export function slotButton(page: Page, choice: SlotChoice): Locator {
  return firstGrid(page)
    .locator(`ul[aria-label="${choice.day}"]`)
    .getByRole('button', { name: choice.time, exact: true });
}

/** Waits until the page's service worker controls it, so a reload works with no network. */
export async function installApp(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
}

export function appointments(page: Page): Locator {
  return page.getByTestId('appointment');
}

const NO_SESSION_STORE = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  // Node 20 has no WebSocket of its own; supabase-js wants one even when no channel is opened.
  realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
};

/** The API's keys, as `npm run keys` derives them (the dev JWT secret unless one is set). */
function apiKeys() {
  return deriveApiKeys(process.env.JWT_SECRET ?? DEV_JWT_SECRET);
}

/** The API's service-role client, for arranging and checking server state. */
export async function serviceClient(): Promise<SupabaseClient> {
  return createClient(E2E_API_URL, (await apiKeys()).serviceRoleKey, NO_SESSION_STORE);
}

/** Another session of `email` (another device), outside the browser. */
export async function otherSession(email: string, password: string): Promise<SupabaseClient> {
  const client = createClient(E2E_API_URL, (await apiKeys()).anonKey, NO_SESSION_STORE);
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return client;
}

export const ANA = { email: 'ana.ribeiro@saudeja.example', name: 'Ana Ribeiro' } as const;

/** The account id of `email`, read as the service role. */
export async function userIdOf(email: string): Promise<string> {
  const admin = await serviceClient();
  const { data, error } = await admin
    .from('perfis_usuarios')
    .select('id')
    .eq('email', email)
    .single<{ id: string }>();
  if (error) throw error;
  return data.id;
}

/**
 * Gives a fixed doctor a fresh one-time password, flagged for change at first login — the state
 * `npm start` leaves the account in when it creates it and prints the password (which the
 * tests cannot read from the server's output).
 */
export async function oneTimePassword(email: string): Promise<string> {
  const admin = await serviceClient();
  const password = `otp-${randomUUID()}`;
  const updated = await admin.auth.admin.updateUserById(await userIdOf(email), {
    password,
    user_metadata: { require_password_change: true },
  });
  if (updated.error) throw updated.error;
  return password;
}

/** /acesso-medico with the one-time password → the forced change → the doctor's dashboard. */
export async function doctorFirstAccess(page: Page, email: string): Promise<string> {
  const temporary = await oneTimePassword(email);
  await page.goto('/acesso-medico');
  const form = page.getByRole('form', { name: 'Entrar' });
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Senha', { exact: true }).fill(temporary);
  await form.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(/\/conta\/alterar-senha\?source=required$/);
  await expect(page.getByText('Crie sua nova senha')).toBeVisible();
  const chosen = `nova-${randomUUID().slice(0, 8)}`;
  await page.getByLabel('Nova Senha', { exact: true }).fill(chosen);
  await page.getByLabel('Confirmar Nova Senha', { exact: true }).fill(chosen);
  await page.getByRole('button', { name: 'Salvar Nova Senha' }).click();
  await expect(page).toHaveURL(/\/medico\/dashboard/);
  return chosen;
}
