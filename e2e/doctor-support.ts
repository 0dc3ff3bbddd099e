import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { expect, type Page } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import WebSocket from 'ws';
import { E2E_API_URL } from '../playwright.config.ts';
import { DEV_JWT_SECRET } from '../supabase/local/config.ts';
import { deriveApiKeys } from '../supabase/local/api-keys.ts';
import { FIXED_DOCTORS, type DoctorSlug } from '../supabase/functions/_shared/fixed-doctors.ts';

/** The doctors' own passwords in e2e (the one-time ones `npm start` prints are replaced). */
export const DOCTOR_TEMP_PASSWORD = 'provisoria-123';
export const DOCTOR_PASSWORD = 'senha-do-medico-123';
const PATIENT_PASSWORD = 'senha-do-paciente-123';

export const ANA = FIXED_DOCTORS.ana;

let admin: Promise<SupabaseClient> | null = null;

/** A service-role client for the e2e API (the default dev JWT secret `npm start` uses). */
export function adminClient(): Promise<SupabaseClient> {
  admin ??= deriveApiKeys(DEV_JWT_SECRET).then(({ serviceRoleKey }) =>
    createClient(E2E_API_URL, serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      // Node 20 has no WebSocket of its own; supabase-js needs one even when unused.
      realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
    }),
  );
  return admin;
}

async function doctorUserId(slug: DoctorSlug): Promise<string> {
  const client = await adminClient();
  const { data, error } = await client
    .from('medicos')
    .select('user_id')
    .eq('id', FIXED_DOCTORS[slug].medicoId)
    .single<{ user_id: string }>();
  if (error) throw error;
  return data.user_id;
}

/**
 * Logs a fixed doctor in as at first access: the admin sets a known temporary password with
 * the forced change still required (what the one-time password printed by `npm start` is),
 * the doctor signs in at /acesso-medico, chooses a new password at
 * /conta/alterar-senha?source=required, and lands on the dashboard.
 */
export async function logInDoctor(page: Page, slug: DoctorSlug = 'ana'): Promise<void> {
  const client = await adminClient();
  const id = await doctorUserId(slug);
  const { error } = await client.auth.admin.updateUserById(id, {
    password: DOCTOR_TEMP_PASSWORD,
    user_metadata: { require_password_change: true },
  });
  if (error) throw error;
  await page.goto('/acesso-medico');
  const form = page.getByRole('form', { name: 'Entrar' });
  await form.getByLabel('E-mail').fill(FIXED_DOCTORS[slug].email);
  await form.getByLabel('Senha', { exact: true }).fill(DOCTOR_TEMP_PASSWORD);
  await form.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(/\/conta\/alterar-senha\?source=required/);
  await page.getByLabel('Nova Senha', { exact: true }).fill(DOCTOR_PASSWORD);
  await page.getByLabel('Confirmar Nova Senha', { exact: true }).fill(DOCTOR_PASSWORD);
  await page.getByRole('button', { name: 'Salvar Nova Senha' }).click();
  await expect(page).toHaveURL(/\/medico\/dashboard/);
}

const PROFILE_COLUMNS =
  'public_name, specialty, crm, uf, bio, price_in_cents, image_url, doctoralia_reviews_url';

/** A fixed doctor's public profile as it is now, to put back after a test (specs share data). */
export async function snapshotDoctorProfile(
  slug: DoctorSlug = 'ana',
): Promise<() => Promise<void>> {
  const client = await adminClient();
  const id = FIXED_DOCTORS[slug].medicoId;
  const { data, error } = await client
    .from('medicos')
    .select(PROFILE_COLUMNS)
    .eq('id', id)
    .single<Record<string, unknown>>();
  if (error) throw error;
  return async () => {
    const restored = await client.from('medicos').update(data).eq('id', id);
    if (restored.error) throw restored.error;
  };
}

export type StoredBlock = { id: string; dia_semana: number; hora_inicio: string; hora_fim: string };

/** A doctor's blocks on the server (tombstones left out), in a stable order. */
export async function activeBlocks(medicoId: string): Promise<StoredBlock[]> {
  const client = await adminClient();
  const { data, error } = await client
    .from('agenda_medico')
    .select('id, dia_semana, hora_inicio, hora_fim')
    .eq('medico_id', medicoId)
    .eq('_deleted', false)
    .order('id')
    .returns<StoredBlock[]>();
  if (error) throw error;
  return data;
}

/** Soft-deletes (as the replicas expect) a doctor's blocks that start at `hhmm` on `diaSemana`. */
export async function removeBlocksAt(
  medicoId: string,
  diaSemana: number,
  hhmm: string,
): Promise<void> {
  const client = await adminClient();
  const { error } = await client
    .from('agenda_medico')
    .update({ _deleted: true })
    .eq('medico_id', medicoId)
    .eq('dia_semana', diaSemana)
    .eq('hora_inicio', `${hhmm}:00`);
  if (error) throw error;
}

const WEEKDAYS = [
  'Domingo',
  'Segunda-feira',
  'Terça-feira',
  'Quarta-feira',
  'Quinta-feira',
  'Sexta-feira',
  'Sábado',
] as const;

/** Tomorrow in São Paulo: its dia_semana (0 = Sunday), editor day name and grid 'dd/MM'. */
export function tomorrow(): { diaSemana: number; name: string; dayMonth: string } {
  const day = Temporal.Now.plainDateISO('America/Sao_Paulo').add({ days: 1 });
  const diaSemana = day.dayOfWeek % 7;
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    diaSemana,
    name: WEEKDAYS[diaSemana] ?? '',
    dayMonth: `${pad(day.day)}/${pad(day.month)}`,
  };
}

/** A confirmed patient account with a complete profile, made through the admin API. */
export async function createPatientAccount(
  fullName: string,
  cpf: string,
): Promise<{ email: string; password: string }> {
  const client = await adminClient();
  const email = `e2e-doc-${randomUUID().slice(0, 8)}@saudeja.example`;
  const created = await client.auth.admin.createUser({
    email,
    password: PATIENT_PASSWORD,
    email_confirm: true,
    user_metadata: {
      full_name: fullName,
      cpf,
      data_nasc: '1990-03-15',
      whatsapp: '(11) 98765-4321',
    },
  });
  if (created.error) throw created.error;
  return { email, password: PATIENT_PASSWORD };
}

/**
 * A paid appointment of a fixed doctor, made the way the product makes one: a new patient
 * books through the booking RPC; the payment confirmation is then written by the service
 * role (the doctor's own confirm flow belongs to the consultas specs). The slot is two weeks
 * ahead at `time` (17:30 unless said; a function of the day for a doctor whose hours differ
 * by weekday), clear of the near slots other specs book.
 */
export async function paidAppointment(opts: {
  slug: DoctorSlug;
  patientName: string;
  cpf: string;
  time?: string | ((day: Temporal.PlainDate) => string);
}): Promise<{ id: string; start: string; priceInCents: number }> {
  const { email, password } = await createPatientAccount(opts.patientName, opts.cpf);
  const client = await adminClient();
  const { anonKey } = await deriveApiKeys(DEV_JWT_SECRET);
  const patient = createClient(E2E_API_URL, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
  const signedIn = await patient.auth.signInWithPassword({ email, password });
  if (signedIn.error) throw signedIn.error;
  let day = Temporal.Now.plainDateISO('America/Sao_Paulo').add({ days: 14 });
  while (day.dayOfWeek > 5) day = day.add({ days: 1 });
  const start = day
    .toZonedDateTime({
      timeZone: 'America/Sao_Paulo',
      plainTime: typeof opts.time === 'function' ? opts.time(day) : (opts.time ?? '17:30'),
    })
    .toInstant()
    .toString();
  const booked = await patient
    .rpc('paciente_agendar', {
      p_medico_id: FIXED_DOCTORS[opts.slug].medicoId,
      p_horario_inicio: start,
      p_mutation_id: randomUUID(),
    })
    .single<{ id: string; price_in_cents: number }>();
  if (booked.error) throw booked.error;
  const paid = await client
    .from('agendamentos')
    .update({
      pagamento_status: 'pago',
      pagamento_confirmado_em: Temporal.Now.instant().toString(),
    })
    .eq('id', booked.data.id);
  if (paid.error) throw paid.error;
  await patient.auth.signOut();
  return { id: booked.data.id, start, priceInCents: booked.data.price_in_cents };
}
