import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../supabase/local/db/types.ts';
import { runScheduledJobs, schedulerClient } from '../../scripts/scheduler.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';
import { startSmtpSink } from '../support/smtp-sink.ts';
import { createDoctor, createPatient, ensureService, slot } from './support.ts';

type Mail = { to: string; subject: string; text: string };

/** A booked consultation (with its guide) of `patient` at `start`. */
async function bookWithGuide(
  db: Queryable,
  patient: string,
  medicoId: string,
  start: string,
  meetingLink: string | null = null,
): Promise<{ id: string; guiaId: string }> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.agendamentos (patient_id, medico_id, servico_id, appointment_date,
       appointment_time, horario_inicio, horario_fim, price_in_cents, meeting_link)
     select $1, $2, s.id, ($3::timestamptz at time zone 'America/Sao_Paulo')::date,
       ($3::timestamptz at time zone 'America/Sao_Paulo')::time, $3::timestamptz,
       $3::timestamptz + interval '30 minutes', 15000, $4
     from public.servicos s limit 1 returning id`,
    [patient, medicoId, start, meetingLink],
  );
  const id = rows[0]!.id;
  const guia = await db.query<{ id: string }>(
    `insert into public.guias (agendamento_id, patient_id, medico_id, protocolo, qr_text,
       paciente_snapshot, medico_snapshot, servico_snapshot)
     values ($1, $2, $3, $4, 'qr', '{}', '{}', '{}') returning id`,
    [id, patient, medicoId, `SJ-${id.slice(0, 8)}`],
  );
  const guiaId = guia.rows[0]!.id;
  await db.query('update public.agendamentos set guia_id = $2 where id = $1', [id, guiaId]);
  return { id, guiaId };
}

async function emailOf(db: Queryable, id: string): Promise<string> {
  const { rows } = await db.query<{ email: string }>(
    'select email from public.perfis_usuarios where id = $1',
    [id],
  );
  return rows[0]!.email;
}

async function mailbox(t: TestPlatform, to: string): Promise<Mail[]> {
  const res = await fetch(`${t.url}/mailbox/api?to=${encodeURIComponent(to)}`, {
    headers: { apikey: t.serviceRoleKey },
  });
  return (await res.json()) as Mail[];
}

/** 'dd/MM/yyyy às HH:mm' in São Paulo, as the e-mails write a consultation's start. */
function whenOf(start: string): string {
  const local = Temporal.Instant.from(start).toZonedDateTimeISO('America/Sao_Paulo');
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(local.day)}/${two(local.month)}/${local.year} às ${two(local.hour)}:${two(local.minute)}`;
}

const at = (iso: string, minutes: number) =>
  Temporal.Instant.from(iso).add({ minutes: Math.round(minutes) });

describe('appointment reminders', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform();
    await ensureService(t.platform.ctx.db);
  }, 180_000);
  afterAll(() => t.stop());

  it('e-mails the patient 24 h and 1 h before, each once, as the clock moves', async () => {
    const db = t.platform.ctx.db;
    const doctor = await createDoctor(db, { name: 'Dra. Lembra' });
    const patient = await createPatient(db, 31);
    const start = slot(2);
    const { guiaId } = await bookWithGuide(db, patient, doctor.medicoId, start);
    const email = await emailOf(db, patient);
    const admin = schedulerClient(t.url, t.serviceRoleKey);

    expect(await runScheduledJobs(admin, at(start, -25 * 60))).toEqual([]);
    expect(await mailbox(t, email)).toEqual([]);

    expect(await runScheduledJobs(admin, at(start, -24 * 60 + 1))).toEqual([]);
    const [first, ...others] = await mailbox(t, email);
    expect(others).toEqual([]);
    const when = whenOf(start);
    expect(first!.subject).toBe(`Lembrete: sua teleconsulta é em ${when}`);
    expect(first!.text).toContain('Dra. Lembra');
    expect(first!.text).toContain(`Data e horário: ${when} (horário de Brasília).`);
    expect(first!.text).toContain('Sala da consulta: o link será enviado pelo médico');
    expect(first!.text).toContain(`/guia/${guiaId}`);

    // A later run, and two overlapping ones, send nothing more for the 24 h reminder.
    await runScheduledJobs(admin, at(start, -20 * 60));
    expect(await mailbox(t, email)).toHaveLength(1);

    await Promise.all([
      runScheduledJobs(admin, at(start, -59)),
      runScheduledJobs(admin, at(start, -58)),
      runScheduledJobs(admin, at(start, -57)),
    ]);
    const mails = await mailbox(t, email);
    expect(mails.map((m) => m.subject).sort()).toEqual(
      ['Sua teleconsulta começa em 1 hora', `Lembrete: sua teleconsulta é em ${when}`].sort(),
    );
  });

  it('gives the room link when the doctor set it', async () => {
    const db = t.platform.ctx.db;
    const doctor = await createDoctor(db, { name: 'Dr. Sala' });
    const patient = await createPatient(db, 32);
    const start = slot(4);
    await bookWithGuide(db, patient, doctor.medicoId, start, 'https://meet.example/sala-1');
    await runScheduledJobs(schedulerClient(t.url, t.serviceRoleKey), at(start, -30));
    const [mail] = await mailbox(t, await emailOf(db, patient));
    expect(mail!.text).toContain('Sala da consulta: https://meet.example/sala-1');
  });

  it('sends nothing to a patient who opted out in Meus Dados, nor for a cancelled booking', async () => {
    const db = t.platform.ctx.db;
    const doctor = await createDoctor(db, { name: 'Dr. Silencio' });
    const quiet = await createPatient(db, 33);
    const cancelled = await createPatient(db, 34);
    const start = slot(6);
    await bookWithGuide(db, quiet, doctor.medicoId, start);
    const other = await bookWithGuide(db, cancelled, doctor.medicoId, slot(8));
    await db.query('update public.perfis_usuarios set lembretes_email = false where id = $1', [
      quiet,
    ]);
    await db.query(`update public.agendamentos set status = 'cancelado' where id = $1`, [other.id]);
    const admin = schedulerClient(t.url, t.serviceRoleKey);
    await runScheduledJobs(admin, at(start, -30));
    await runScheduledJobs(admin, at(slot(8), -30));
    expect(await mailbox(t, await emailOf(db, quiet))).toEqual([]);
    expect(await mailbox(t, await emailOf(db, cancelled))).toEqual([]);
  });

  it('tells the patient once that the consultation was completed, after the check-in, however many runs', async () => {
    const db = t.platform.ctx.db;
    const doctor = await createDoctor(db, { name: 'Dra. Conclui' });
    const patient = await createPatient(db, 36);
    const start = slot(12);
    const { id } = await bookWithGuide(db, patient, doctor.medicoId, start);
    const email = await emailOf(db, patient);
    const admin = schedulerClient(t.url, t.serviceRoleKey);
    const completed = async () =>
      (await mailbox(t, email)).filter((m) => m.subject === 'Sua teleconsulta foi concluída');

    await runScheduledJobs(admin, at(start, -25 * 60));
    expect(await completed()).toEqual([]);

    await db.query(
      `update public.agendamentos set pagamento_status = 'pago', status = 'atendido' where id = $1`,
      [id],
    );
    await Promise.all([
      runScheduledJobs(admin, at(start, -25 * 60)),
      runScheduledJobs(admin, at(start, -25 * 60)),
    ]);
    await runScheduledJobs(admin, at(start, 60));
    const [mail, ...more] = await completed();
    expect(more).toEqual([]);
    const when = whenOf(start);
    expect(mail!.text).toContain(`Sua teleconsulta com Dra. Conclui em ${when} foi concluída.`);
    expect(mail!.text).not.toContain('lembretes');
  });

  it('answers only the service role', async () => {
    // A valid token of another role reaches the function and is refused there; an invalid
    // one is refused by the gateway, as hosted Supabase's does.
    for (const [key, status] of [
      [t.anonKey, 403],
      ['not-a-key', 401],
    ] as const) {
      const res = await fetch(`${t.url}/functions/v1/send-appointment-reminders`, {
        method: 'POST',
        headers: { apikey: t.anonKey, Authorization: `Bearer ${key}` },
        body: '{}',
      });
      expect(res.status).toBe(status);
    }
    const bad = await fetch(`${t.url}/functions/v1/send-appointment-reminders`, {
      method: 'POST',
      headers: { apikey: t.serviceRoleKey, Authorization: `Bearer ${t.serviceRoleKey}` },
      body: JSON.stringify({ now: 'amanhã' }),
    });
    expect(bad.status).toBe(400);
    const rpc = await t.client().rpc('reivindicar_lembretes', {});
    expect(rpc.error).not.toBeNull();
  });
});

describe('reminders with SMTP_URL', () => {
  let t: TestPlatform;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestPlatform({ config: { smtpUrl: smtp.url } });
    await ensureService(t.platform.ctx.db);
  }, 180_000);
  afterAll(async () => {
    await t.stop();
    await smtp.close();
  });

  it('go out through the SMTP server', async () => {
    const db = t.platform.ctx.db;
    const doctor = await createDoctor(db, { name: 'Dra. Correio' });
    const patient = await createPatient(db, 35);
    const start = slot(10);
    await bookWithGuide(db, patient, doctor.medicoId, start);
    const admin = schedulerClient(t.url, t.serviceRoleKey);
    expect(await runScheduledJobs(admin, at(start, -60 * 23))).toEqual([]);
    const email = await emailOf(db, patient);
    expect(smtp.received.map((r) => r.to)).toEqual([[email]]);
    expect(smtp.received[0]!.raw).toContain('Dra. Correio');
    expect(await mailbox(t, email)).toEqual([]);
  });
});
