/**
 * The doctor's dashboard with a big replica: a doctor with `count` appointments (half before
 * today, 48 today, the rest ahead), seeded straight into the product's database through the
 * service-role API, then measured in Chromium on the real build.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { BrowserContext, Page } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import WebSocket from 'ws';
import { DEV_JWT_SECRET } from '../../supabase/local/config.ts';
import { chromiumCpuUs } from '../cpu.ts';
import { fromQuietBlank } from './cold-start.ts';
import { deriveApiKeys } from '../../supabase/local/api-keys.ts';
import { cpfFor } from '../../sync/testing/people.ts';

const ZONE = 'America/Sao_Paulo';
const ANA = { id: 'a0000000-0000-4000-8000-000000000001', email: 'ana.ribeiro@saudeja.example' };
const PATIENTS = 40;
const BATCH = 1000;
export const DOCTOR_PASSWORD = 'bench-doctor-123';

async function admin(api: string): Promise<SupabaseClient> {
  const { serviceRoleKey } = await deriveApiKeys(process.env.JWT_SECRET ?? DEV_JWT_SECRET);
  return createClient(api, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
}

function must<T>(result: { data: T | null; error: unknown }): T {
  if (result.error || result.data === null) throw new Error(JSON.stringify(result.error));
  return result.data;
}

/**
 * A dropped connection (the busy server closing a kept-alive socket) is retried; a retry that
 * meets its own rows (unique slot, 23505) means the first attempt landed.
 */
async function insertBatch(client: SupabaseClient, rows: object[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { error } = await client.from('agendamentos').insert(rows);
    if (!error || (attempt > 1 && error.code === '23505')) return;
    if (attempt === 3 || !error.message.includes('fetch failed')) throw new Error(error.message);
  }
}

/** Patients with accented names (the search folds them), and Ana's appointments with them. */
export async function seedDoctor(
  api: string,
  count: number,
): Promise<{ email: string; total: number }> {
  const client = await admin(api);
  const names = ['João', 'Conceição', 'Antônio', 'Luíza', 'Márcia', 'José', 'Inês', 'Caio'];
  const patientIds: string[] = [];
  for (let i = 0; i < PATIENTS; i++) {
    const { data, error } = await client.auth.admin.createUser({
      email: `bench-p${i}@saudeja.example`,
      password: 'bench-patient-123',
      email_confirm: true,
      user_metadata: {
        full_name: `${names[i % names.length]} Paciente ${i}`,
        cpf: cpfFor(900 + i),
        data_nasc: '1985-04-12',
        whatsapp: '(11) 91234-5678',
      },
    });
    if (error) throw error;
    patientIds.push(data.user.id);
  }
  const ana = must(
    await client
      .from('perfis_usuarios')
      .select('id')
      .eq('email', ANA.email)
      .single<{ id: string }>(),
  );
  const updated = await client.auth.admin.updateUserById(ana.id, {
    password: DOCTOR_PASSWORD,
    user_metadata: { require_password_change: false },
  });
  if (updated.error) throw updated.error;
  const servico = must(
    await client.from('servicos').select('id').eq('nome', 'Teleconsulta').single<{ id: string }>(),
  );

  // Slots already booked (the patient figures book Ana's first free one) are skipped.
  const taken = new Set(
    must(
      await client
        .from('agendamentos')
        .select('horario_inicio')
        .eq('medico_id', ANA.id)
        .returns<{ horario_inicio: string }[]>(),
    ).map((r) => Temporal.Instant.from(r.horario_inicio).epochMilliseconds),
  );
  const midnight = Temporal.Now.zonedDateTimeISO(ZONE).startOfDay();
  const first = midnight.subtract({ minutes: 30 * Math.floor(count / 2) });
  const rows = [];
  for (let i = 0; rows.length < count; i++) {
    const start = first.add({ minutes: 30 * i });
    if (taken.has(start.epochMilliseconds)) continue;
    const past = Temporal.ZonedDateTime.compare(start, midnight) < 0;
    const status = past ? (i % 5 === 0 ? 'cancelado' : 'atendido') : 'confirmado';
    rows.push({
      patient_id: patientIds[i % PATIENTS],
      medico_id: ANA.id,
      servico_id: servico.id,
      appointment_date: start.toPlainDate().toString(),
      appointment_time: start.toPlainTime().toString({ smallestUnit: 'second' }),
      horario_inicio: start.toInstant().toString(),
      horario_fim: start.add({ minutes: 30 }).toInstant().toString(),
      price_in_cents: 15000,
      status,
      pagamento_status: status === 'cancelado' ? 'cancelado' : past || i % 3 ? 'pago' : 'pendente',
    });
  }
  for (let i = 0; i < rows.length; i += BATCH) await insertBatch(client, rows.slice(i, i + BATCH));
  return { email: ANA.email, total: count + taken.size };
}

/**
 * Signs the doctor in and waits until the whole replica is listed on consultas. The list must
 * come from the replica: the first read (first-consultas.ts) shows every count at once, while
 * the replica's first sync is still running.
 */
export async function openDoctorDashboard(
  page: Page,
  app: string,
  email: string,
  count: number,
): Promise<void> {
  await page.goto(`${app}/acesso-medico`);
  const form = page.getByRole('form', { name: 'Entrar' });
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Senha', { exact: true }).fill(DOCTOR_PASSWORD);
  await form.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(/\/medico\/dashboard/);
  await page.waitForFunction(
    (total) => {
      const results = document.querySelector<HTMLElement>('[data-testid="consultas-results"]');
      if (results?.dataset.source !== 'replica') return false;
      const counts = [...document.querySelectorAll('[role="tab"]')].map((t) =>
        Number(/\((\d+)\)/.exec(t.textContent ?? '')?.[1] ?? 0),
      );
      return counts.reduce((a, b) => a + b, 0) === total;
    },
    count,
    { timeout: 300_000, polling: 500 },
  );
}

/**
 * Keystrokes in the search field, each timed from the input event to the first frame after
 * the list showing that search was committed (the results carry the query they answer).
 */
export async function searchKeystrokes(page: Page, text: string): Promise<number[]> {
  return page.evaluate(async (typed) => {
    const input = document.querySelector<HTMLInputElement>('input[type="search"]')!;
    const results = document.querySelector<HTMLElement>('[data-testid="consultas-results"]')!;
    // React tracks the input's value; set it through the prototype as typing would.
    const descriptor = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!;
    const steps: string[] = [];
    for (let i = 1; i <= typed.length; i++) steps.push(typed.slice(0, i));
    for (let i = typed.length - 1; i >= 0; i--) steps.push(typed.slice(0, i));
    const times: number[] = [];
    for (const query of steps) {
      const shown = new Promise<void>((resolve) => {
        const observer = new MutationObserver(() => {
          if (results.dataset.query !== query) return;
          observer.disconnect();
          requestAnimationFrame(() => resolve());
        });
        observer.observe(results, { attributes: true, attributeFilter: ['data-query'] });
      });
      const start = performance.now();
      descriptor.set!.call(input, query);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await shown;
      times.push(performance.now() - start);
    }
    return times;
  }, text);
}

/** Page changes of the visible tab ('Próxima' then 'Anterior'), click to the next frame. */
export async function pageChanges(page: Page, steps: number): Promise<number[]> {
  // No named functions inside: tsx would wrap them in a helper the page does not have.
  return page.evaluate(async (n) => {
    const selector = '[role="tabpanel"]:not([hidden]) nav[aria-label]';
    const times: number[] = [];
    for (let i = 0; i < n * 2; i++) {
      const label = i < n ? 'Próxima' : 'Anterior';
      const nav = document.querySelector<HTMLElement>(selector)!;
      const button = [...nav.querySelectorAll('button')].find((b) => b.textContent === label)!;
      const before = nav.querySelector('span')!.textContent;
      const shown = new Promise<void>((resolve) => {
        const observer = new MutationObserver(() => {
          const now = document.querySelector<HTMLElement>(selector)?.querySelector('span');
          if (!now || now.textContent === before) return;
          observer.disconnect();
          requestAnimationFrame(() => resolve());
        });
        observer.observe(nav.parentElement!, {
          subtree: true,
          characterData: true,
          childList: true,
        });
      });
      const start = performance.now();
      button.click();
      await shown;
      times.push(performance.now() - start);
    }
    return times;
  }, steps);
}

/** One offline cold start of hoje: wall time, and the CPU time Chromium spent on it. */
export type HojeRun = { ms: number; rendererCpuMs: number; otherCpuMs: number };

/**
 * Navigation start → first row of today's list, offline, from the page's own clock, each from a
 * quiet blank page (cold-start.ts); beside it
 * the CPU time of Chromium's renderers (the page's main thread and its helpers) and of its other
 * processes (IndexedDB's backend runs in the browser process) from the navigation to that row,
 * which the machine's load disturbs less than the wall clock (read from /proc in clock ticks,
 * so compare means of many runs, not single runs).
 */
export async function offlineHojeTimes(
  context: BrowserContext,
  page: Page,
  app: string,
  runs: number,
): Promise<HojeRun[]> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await context.setOffline(true);
  const times: HojeRun[] = [];
  for (let i = 0; i < runs; i++) {
    await fromQuietBlank(page);
    const before = chromiumCpuUs();
    await page.goto(`${app}/medico/dashboard/hoje`, { waitUntil: 'commit' });
    const handle = await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="today-appointment"]') ? performance.now() : null,
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    const after = chromiumCpuUs();
    times.push({
      ms: (await handle.jsonValue()) as number,
      rendererCpuMs: (after.renderer - before.renderer) / 1000,
      otherCpuMs: (after.other - before.other) / 1000,
    });
  }
  await context.setOffline(false);
  return times;
}
