import {
  expect,
  type APIRequestContext,
  type Browser,
  type Locator,
  type Page,
} from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { E2E_API_URL } from '../playwright.config.ts';
import { configFromEnv } from '../supabase/local/config.ts';
import { deriveApiKeys } from '../supabase/local/api-keys.ts';
import { firstGrid } from './support.ts';

/** The sizes every patient-journey screen is walked at. */
export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** The server's service key, derived the way `npm start` does from the same JWT secret. */
async function serviceKey(): Promise<string> {
  return (await deriveApiKeys(configFromEnv().jwtSecret)).serviceRoleKey;
}

/**
 * Changes the booking policy on the server (public.politica_agendamento, service role only),
 * as an operator would; values are Postgres intervals ('5 seconds', '15 minutes').
 */
export async function setBookingPolicy(
  request: APIRequestContext,
  patch: { reserva_checkout?: string; antecedencia_cancelamento?: string },
): Promise<void> {
  const key = await serviceKey();
  const res = await request.patch(`${E2E_API_URL}/rest/v1/politica_agendamento?id=eq.true`, {
    headers: { apikey: key, Authorization: `Bearer ${key}`, Prefer: 'return=minimal' },
    data: patch,
    // A server that does not answer is named as such, not as the test running out of time.
    timeout: 15_000,
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

export const DEFAULT_POLICY = {
  reserva_checkout: '15 minutes',
  antecedencia_cancelamento: '24 hours',
};

/** A visitor's page on /agendamentos in a browser context of its own (another person). */
export async function visitorGrid(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({
    viewport,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  });
  const page = await context.newPage();
  await page.goto('/agendamentos');
  await expect(page.getByRole('region', { name: 'HORA MARCADA' }).first()).toBeVisible();
  return { page, close: () => context.close() };
}

/** The card of the appointment at `time` in one of the dashboard's lists. */
export function cardAt(page: Page, section: 'Próximas consultas' | 'Histórico', time: string) {
  return page
    .getByRole('region', { name: section })
    .getByTestId('appointment')
    .filter({ hasText: `às ${time}` });
}

/** Decodes the QR code in an element's screenshot, pixel by pixel, as a phone camera would. */
export async function decodeQr(element: Locator): Promise<string | null> {
  const png = PNG.sync.read(await element.screenshot());
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  return code?.data ?? null;
}

/**
 * A slot of the first doctor's grid whether free or taken: a taken one is named
 * '10:30 - Horário indisponível', so `slotButton`'s exact name would not find it.
 */
export function anySlot(page: Page, choice: { day: string; time: string }): Locator {
  return firstGrid(page)
    .locator(`ul[aria-label="${choice.day}"]`)
    .getByRole('button', { name: new RegExp(`^${choice.time}\\b`) });
}
