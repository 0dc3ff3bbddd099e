import { randomInt, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import { Temporal } from 'temporal-polyfill';
import { runScheduledJobs } from '../scripts/scheduler.ts';
import { E2E_API_URL } from '../playwright.config.ts';
import { TERMS_VERSION } from '../src/domain/rules/consent.ts';
import { DEV_JWT_SECRET } from '../supabase/local/config.ts';
import { deriveApiKeys } from '../supabase/local/api-keys.ts';
import { ANA, logInDoctor } from './doctor-support.ts';
import {
  PASSWORD,
  fillSignup,
  latestMail,
  newPatient,
  openSignup,
  otherSession,
  registeredPatient,
  serviceClient,
  shot,
  userIdOf,
  type Patient,
} from './support.ts';

const ZONE = 'America/Sao_Paulo';
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** A weekday afternoon slot of Dra. Ana weeks ahead, clear of the slots other specs book. */
function farSlot(): string {
  let day = Temporal.Now.plainDateISO(ZONE).add({ days: 20 + randomInt(60) });
  while (day.dayOfWeek > 5) day = day.add({ days: 1 });
  const minutes = 14 * 60 + 30 * randomInt(8);
  const time = Temporal.PlainTime.from({ hour: Math.floor(minutes / 60), minute: minutes % 60 });
  return day.toZonedDateTime({ timeZone: ZONE, plainTime: time }).toInstant().toString();
}

/**
 * Books a far slot with Dra. Ana and issues its guide, as the checkout does, through the RPCs.
 * The slot is drawn at random, and drawn again if another test of the run already took it.
 */
async function bookWithGuide(
  patient: SupabaseClient,
): Promise<{ id: string; guiaId: string; start: string }> {
  let start = farSlot();
  let booked = await book(patient, start);
  for (let attempt = 1; booked.error?.code === '23505' && attempt < 10; attempt++) {
    start = farSlot();
    booked = await book(patient, start);
  }
  if (booked.error) throw booked.error;
  const guide = await patient
    .rpc('paciente_gerar_guia', { p_agendamento_id: booked.data.id, p_mutation_id: randomUUID() })
    .single<{ guia_id?: string; id?: string }>();
  if (guide.error) throw guide.error;
  const admin = await serviceClient();
  const row = await admin
    .from('agendamentos')
    .select('guia_id')
    .eq('id', booked.data.id)
    .single<{ guia_id: string }>();
  if (row.error) throw row.error;
  return { id: booked.data.id, guiaId: row.data.guia_id, start };
}

function book(patient: SupabaseClient, start: string) {
  return patient
    .rpc('paciente_agendar', {
      p_medico_id: ANA.medicoId,
      p_horario_inicio: start,
      p_mutation_id: randomUUID(),
    })
    .single<{ id: string }>();
}

/** A patient signed up and confirmed through the UI, plus a session of theirs outside it. */
async function patientWithSession(
  page: Page,
  tag: string,
): Promise<{ p: Patient; api: SupabaseClient }> {
  const p = newPatient(tag);
  await registeredPatient(page, p);
  return { p, api: await otherSession(p.email, PASSWORD) };
}

test('consent to telemedicine is required at sign-up, and recorded with its terms version', async ({
  page,
}) => {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    const form = await openSignup(page);
    await shot(page, `h18b-cadastro-${viewport.name}`);
    if (viewport.name === 'phone') {
      const p = newPatient('consent');
      await fillSignup(form, p);
      const box = form.getByRole('checkbox', { name: /Li e aceito/ });
      await box.uncheck();
      await form.getByRole('button', { name: 'Criar Conta' }).click();
      const required = form.getByText(
        'Você precisa aceitar o Termo de Consentimento para Telemedicina.',
      );
      await expect(required).toBeVisible();
      await expect(page).toHaveURL(/\/acesso-paciente$/);
      await shot(page, `h18b-cadastro-consentimento-obrigatorio-${viewport.name}`);
      await box.check();
      await form.getByRole('button', { name: 'Criar Conta' }).click();
      await expect(page).toHaveURL(/\/cadastro-sucesso$/);
      const admin = await serviceClient();
      const id = await userIdOf(p.email);
      const { data } = await admin
        .from('consentimentos')
        .select('tipo, versao_termos')
        .eq('user_id', id);
      expect(data).toEqual([{ tipo: 'telemedicina', versao_termos: TERMS_VERSION }]);
    }
  }
});

test('a reminder e-mail arrives in the mailbox when the job runs with the clock moved', async ({
  page,
}) => {
  const { p, api } = await patientWithSession(page, 'lembrete');
  const { guiaId, start } = await bookWithGuide(api);
  const { serviceRoleKey } = await deriveApiKeys(DEV_JWT_SECRET);
  // The scheduler's own run, with its clock injected (the service-role client of support.ts
  // carries the WebSocket Node 20 lacks).
  const job = await serviceClient();

  // The job's clock, a day before the consultation: its 24 h reminder is due.
  const clock = Temporal.Instant.from(start).subtract({ hours: 23, minutes: 30 });
  expect(await runScheduledJobs(job, clock)).toEqual([]);
  const mail = (await latestMail(page.request, p.email)) as { subject: string; text?: string };
  const local = Temporal.Instant.from(start).toZonedDateTimeISO(ZONE);
  const pad = (n: number) => String(n).padStart(2, '0');
  const when = `${pad(local.day)}/${pad(local.month)}/${local.year} às ${pad(local.hour)}:${pad(local.minute)}`;
  expect(mail.subject).toBe(`Lembrete: sua teleconsulta é em ${when}`);

  // Run again: the reminder was recorded, so nothing new arrives.
  expect(await runScheduledJobs(job, clock.add({ minutes: 10 }))).toEqual([]);
  const res = await page.request.get(
    `${E2E_API_URL}/mailbox/api?to=${encodeURIComponent(p.email)}`,
    {
      headers: { apikey: serviceRoleKey },
    },
  );
  const all = (await res.json()) as { subject: string; text: string; links: string[] }[];
  const reminders = all.filter((m) => m.subject.startsWith('Lembrete'));
  expect(reminders).toHaveLength(1);
  expect(reminders[0]!.text).toContain('Dra. Ana Ribeiro');
  expect(reminders[0]!.text).toContain('Sala da consulta: o link será enviado pelo médico');
  const guideLink = reminders[0]!.links.find((l) => l.includes(`/guia/${guiaId}`));
  expect(guideLink).toBeTruthy();
  await page.goto(guideLink!);
  await expect(page.getByRole('heading', { name: /Guia de Atendimento/ }).first()).toBeVisible();
});

test("Meus Dados: reminders opt-out, the export holds only the patient's data, deletion signs out and anonymises", async ({
  page,
}) => {
  const admin = await serviceClient();
  const other = await patientWithSession(page, 'outro');
  const otherBooking = await bookWithGuide(other.api);
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await page.goto('/');

  const { p, api } = await patientWithSession(page, 'lgpd');
  const me = await userIdOf(p.email);
  const future = await bookWithGuide(api);
  const pastStart = Temporal.Now.instant()
    .subtract({ hours: 72 })
    .round({ smallestUnit: 'minute' });
  const pastLocal = pastStart.toZonedDateTimeISO(ZONE);
  const servico = await admin.from('servicos').select('id').limit(1).single<{ id: string }>();
  const past = await admin
    .from('agendamentos')
    .insert({
      patient_id: me,
      medico_id: ANA.medicoId,
      servico_id: servico.data!.id,
      appointment_date: pastLocal.toPlainDate().toString(),
      appointment_time: pastLocal.toPlainTime().toString(),
      horario_inicio: pastStart.toString(),
      horario_fim: pastStart.add({ minutes: 30 }).toString(),
      price_in_cents: 15000,
      status: 'atendido',
      pagamento_status: 'pago',
    })
    .select('id')
    .single<{ id: string }>();
  if (past.error) throw past.error;

  await page.goto('/paciente/dashboard/dados');
  const reminders = page.getByRole('checkbox', { name: /Receber lembretes/ });
  await expect(reminders).toBeChecked();
  await reminders.uncheck();
  await expect(page.getByText('Lembretes por e-mail desativados.')).toBeVisible();
  await expect
    .poll(
      async () =>
        (await admin.from('perfis_usuarios').select('lembretes_email').eq('id', me).single()).data,
    )
    .toEqual({ lembretes_email: false });

  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await expect(page.getByRole('heading', { name: 'Seus dados (LGPD)' })).toBeVisible();
    await shot(page, `h18b-meus-dados-${viewport.name}`);
  }

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Baixar meus dados' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^meus-dados-\d{4}-\d{2}-\d{2}\.json$/);
  const text = await readFile(await download.path(), 'utf8');
  const exported = JSON.parse(text) as {
    perfil: { email: string; lembretes_email: boolean };
    consentimentos: { versao_termos: string }[];
    agendamentos: { id: string; status: string }[];
  };
  expect(exported.perfil).toMatchObject({ email: p.email, lembretes_email: false });
  expect(exported.consentimentos.map((c) => c.versao_termos)).toEqual([TERMS_VERSION]);
  expect(exported.agendamentos.map((a) => a.id).sort()).toEqual([past.data.id, future.id].sort());
  for (const foreign of [other.p.email, other.p.fullName, other.p.cpf, otherBooking.id]) {
    expect(text).not.toContain(foreign);
  }

  await page.getByRole('button', { name: 'Excluir minha conta' }).click();
  const dialog = page.getByRole('dialog', { name: 'Excluir minha conta' });
  const confirm = dialog.getByRole('button', { name: 'Excluir definitivamente' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Digite EXCLUIR para confirmar').fill('EXCLUIR');
  await shot(page, 'h18b-excluir-conta-phone');
  await confirm.click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Sua conta foi excluída.')).toBeVisible();
  await expect(
    page
      .getByRole('link', { name: 'Área do Paciente' })
      .or(page.getByRole('button', { name: 'Área do Paciente' }))
      .first(),
  ).toBeVisible();
  await page.goto('/paciente/dashboard/dados');
  await expect(page).not.toHaveURL(/\/paciente\/dashboard/);

  const signIn = await otherSession(p.email, PASSWORD).then(
    () => 'signed in',
    () => 'refused',
  );
  expect(signIn).toBe('refused');
  const rows = await admin.from('agendamentos').select('id, status').eq('patient_id', me);
  expect(
    Object.fromEntries((rows.data ?? []).map((r) => [r.id as string, r.status as string])),
  ).toEqual({
    [past.data.id]: 'atendido',
    [future.id]: 'cancelado',
  });
  const slot = await admin.from('agenda_ocupada').select('_deleted').eq('id', future.id).single();
  expect(slot.data).toEqual({ _deleted: true });
  const profile = await admin
    .from('perfis_usuarios')
    .select('full_name, email, cpf, whatsapp')
    .eq('id', me)
    .single();
  expect(profile.data).toEqual({
    full_name: 'Paciente removido',
    email: null,
    cpf: null,
    whatsapp: null,
  });
});

test('the footer opens the legal pages, each marked as a template for the clinic', async ({
  page,
}) => {
  const pages = [
    ['Termos de Serviço', 'Termos de Serviço', 'termos'],
    ['Política de Privacidade (LGPD)', 'Política de Privacidade (LGPD)', 'privacidade'],
    ['Política de Reembolso', 'Política de Reembolso', 'reembolso'],
    [
      'Consentimento para Telemedicina',
      'Termo de Consentimento para Telemedicina',
      'consentimento',
    ],
  ] as const;
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    for (const [link, heading, path] of pages) {
      await page.goto('/');
      await page.getByRole('contentinfo').getByRole('link', { name: link }).click();
      await expect(page).toHaveURL(new RegExp(`/${path}$`));
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByText('Modelo para revisão da clínica')).toBeVisible();
      await shot(page, `h18b-${path}-${viewport.name}`);
    }
  }
});

test("the doctor's hoje list offers a WhatsApp reminder with the message filled in", async ({
  page,
}) => {
  const admin = await serviceClient();
  const { p } = await patientWithSession(page, 'whats');
  const me = await userIdOf(p.email);
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  // Today at 00:05 in São Paulo, paid: off the slot grid, so no booking of another spec collides.
  const today = Temporal.Now.plainDateISO(ZONE);
  const start = today.toZonedDateTime({ timeZone: ZONE, plainTime: '00:05' }).toInstant();
  const servico = await admin.from('servicos').select('id').limit(1).single<{ id: string }>();
  const inserted = await admin.from('agendamentos').insert({
    patient_id: me,
    medico_id: ANA.medicoId,
    servico_id: servico.data!.id,
    appointment_date: today.toString(),
    appointment_time: '00:05:00',
    horario_inicio: start.toString(),
    horario_fim: start.add({ minutes: 30 }).toString(),
    price_in_cents: 15000,
    status: 'confirmado',
    pagamento_status: 'pago',
  });
  if (inserted.error) throw inserted.error;

  await logInDoctor(page);
  await page.goto('/medico/dashboard/hoje');
  const link = page.getByRole('link', { name: `Lembrar pelo WhatsApp: ${p.fullName}` });
  await expect(link).toBeVisible();
  const href = new URL((await link.getAttribute('href'))!);
  expect(`${href.origin}${href.pathname}`).toBe('https://wa.me/5511987654321');
  // Ana uses the built-in room (the default), so the message carries the room's address.
  const text = href.searchParams.get('text') ?? '';
  const prefix =
    `Olá, ${p.fullName}! Lembrete da sua teleconsulta com Dra. Ana Ribeiro hoje às 00:05 ` +
    `(horário de Brasília). Sala da consulta: ${new URL(page.url()).origin}/consulta/`;
  expect(text.startsWith(prefix)).toBe(true);
  expect(text.slice(prefix.length)).toMatch(/^[0-9a-f-]{36}$/);
});
