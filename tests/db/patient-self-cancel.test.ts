import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../supabase/local/db/index.ts';
import {
  CHECKOUT_HOLD_MINUTES,
  SELF_CANCEL_NOTICE_HOURS,
} from '../../src/domain/rules/policy-defaults.ts';
import {
  ANON,
  SERVICE,
  as,
  createDoctor,
  createPatient,
  ensureService,
  migratedDatabase,
  rejection,
  user,
  type Actor,
  type DoctorFixture,
  type TestDatabase,
} from './support.ts';

/**
 * The checkout hold (expiry of guide-less bookings) and the patient's self-cancel RPC,
 * with the policy they share (CONTRACT.md "Booking policy").
 */

type Row = { id: string; status: string; pagamento_status: string; guia_id: string | null };

let t: TestDatabase;
let db: Database;
let doctor: DoctorFixture;
let patientA: string;
let patientB: string;

beforeAll(async () => {
  t = await migratedDatabase();
  db = t.db;
  await ensureService(db);
  doctor = await createDoctor(db, { name: 'Doutora Política' });
  patientA = await createPatient(db, 31);
  patientB = await createPatient(db, 32);
});

afterAll(() => t.dispose());

/**
 * An appointment of patient A starting `startsIn` from now (a Postgres interval), inserted as
 * the server, booked `bookedAgo` ago; with a guide when `guide`, paid when `paid`.
 */
async function appointment(opts: {
  startsIn: string;
  bookedAgo?: string;
  guide?: boolean;
  paid?: boolean;
  patient?: string;
}): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.agendamentos (patient_id, medico_id, servico_id, appointment_date,
       appointment_time, horario_inicio, horario_fim, price_in_cents, pagamento_status, created_at)
     select $1, $2, s.id, current_date, '10:00', date_trunc('minute', now() + $3::interval),
       date_trunc('minute', now() + $3::interval) + interval '30 minutes', 15000, $4,
       now() - $5::interval
     from public.servicos s where s.nome = 'Teleconsulta'
     returning id`,
    [
      opts.patient ?? patientA,
      doctor.medicoId,
      opts.startsIn,
      opts.paid ? 'pago' : 'pendente',
      opts.bookedAgo ?? '0 seconds',
    ],
  );
  const id = rows[0]!.id;
  if (opts.guide) {
    await as(db, user(opts.patient ?? patientA), (tx) =>
      tx.query('select * from public.paciente_gerar_guia($1, null)', [id]),
    );
  }
  return id;
}

async function row(id: string): Promise<Row> {
  const { rows } = await db.query<Row>(
    'select id, status, pagamento_status, guia_id from public.agendamentos where id = $1',
    [id],
  );
  return rows[0]!;
}

async function occupied(id: string): Promise<{ _deleted: boolean } | undefined> {
  return as(
    db,
    ANON,
    async (tx) =>
      (
        await tx.query<{ _deleted: boolean }>(
          'select _deleted from public.agenda_ocupada where id = $1',
          [id],
        )
      ).rows[0],
  );
}

const cancelar = (actor: Actor, id: string | null, mutation: string | null = randomUUID()) =>
  as(
    db,
    actor,
    async (tx) =>
      (
        await tx.query<{ success: boolean; message: string }>(
          'select * from public.paciente_cancelar_agendamento($1, $2)',
          [id, mutation],
        )
      ).rows,
  );

const expireJob = () =>
  as(db, SERVICE, (tx) => tx.query('select public.expire_unpaid_appointments()'));

describe('booking policy', () => {
  it('has the defaults of src/domain/rules/policy.ts', async () => {
    const { rows } = await db.query<{ hold: string; notice: string }>(
      `select extract(epoch from reserva_checkout)::int as hold,
              extract(epoch from antecedencia_cancelamento)::int as notice
       from public.politica_agendamento`,
    );
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]!.hold)).toBe(CHECKOUT_HOLD_MINUTES * 60);
    expect(Number(rows[0]!.notice)).toBe(SELF_CANCEL_NOTICE_HOURS * 3600);
  });

  it('is hidden from API users and cannot lose its row', async () => {
    for (const actor of [ANON, user(patientA), user(doctor.userId)]) {
      const e = await rejection(
        as(db, actor, (tx) => tx.query('select * from public.politica_agendamento')),
      );
      expect(e.code).toBe('42501');
    }
    const e = await rejection(
      as(db, SERVICE, (tx) => tx.query('delete from public.politica_agendamento')),
    );
    expect(e.code).toBe('42501');
  });
});

describe('checkout hold', () => {
  it('expires an unpaid booking without a guide once the hold has passed, freeing the slot', async () => {
    const stale = await appointment({
      startsIn: '3 days',
      bookedAgo: `${CHECKOUT_HOLD_MINUTES} minutes 1 second`,
    });
    const fresh = await appointment({
      startsIn: '3 days 1 hour',
      bookedAgo: `${CHECKOUT_HOLD_MINUTES - 1} minutes`,
    });
    const withGuide = await appointment({ startsIn: '3 days 2 hours', guide: true });
    const paid = await appointment({ startsIn: '3 days 3 hours', bookedAgo: '1 hour', paid: true });
    await db.query(
      'update public.agendamentos set created_at = now() - interval $$1 hour$$ where id = $1',
      [withGuide],
    );
    expect(await occupied(stale)).toEqual({ _deleted: false });
    await expireJob();
    expect((await row(stale)).status).toBe('expirado');
    expect(await occupied(stale)).toEqual({ _deleted: true });
    expect((await row(fresh)).status).toBe('confirmado');
    expect((await row(withGuide)).status).toBe('confirmado');
    expect((await row(paid)).status).toBe('confirmado');
  });

  it('uses the configured hold', async () => {
    const id = await appointment({ startsIn: '4 days', bookedAgo: '31 seconds' });
    await expireJob();
    expect((await row(id)).status).toBe('confirmado');
    await as(db, SERVICE, (tx) =>
      tx.query(`update public.politica_agendamento set reserva_checkout = interval '30 seconds'`),
    );
    try {
      await expireJob();
      expect((await row(id)).status).toBe('expirado');
    } finally {
      await as(db, SERVICE, (tx) =>
        tx.query(`update public.politica_agendamento set reserva_checkout = interval '15 minutes'`),
      );
    }
  });

  it('refuses a guide for a hold that passed, even before the job ran', async () => {
    const id = await appointment({ startsIn: '4 days 1 hour', bookedAgo: '1 hour' });
    const e = await rejection(
      as(db, user(patientA), (tx) =>
        tx.query('select * from public.paciente_gerar_guia($1, null)', [id]),
      ),
    );
    expect(e).toMatchObject({ code: 'P0001', hint: 'invalid_state' });
  });
});

describe('paciente_cancelar_agendamento', () => {
  it('refuses visitors and doctors', async () => {
    const id = await appointment({ startsIn: '5 days' });
    for (const actor of [ANON, user(doctor.userId)]) {
      expect(await rejection(cancelar(actor, id))).toMatchObject({
        code: 'P0001',
        message: 'Acesso negado: Você precisa estar logado como paciente para cancelar.',
        hint: 'not_patient',
      });
    }
  });

  it("requires the id and does not reveal another patient's appointment", async () => {
    expect(await rejection(cancelar(user(patientA), null))).toMatchObject({
      message: 'Dados incompletos.',
      hint: 'invalid_params',
    });
    const other = await appointment({ startsIn: '5 days 1 hour', patient: patientB });
    expect(await rejection(cancelar(user(patientA), other))).toMatchObject({
      message: 'Agendamento não encontrado.',
      hint: 'not_found',
    });
    expect((await row(other)).status).toBe('confirmado');
  });

  it('releases a checkout hold at any time, freeing the slot', async () => {
    const id = await appointment({ startsIn: '1 hour' });
    expect(await cancelar(user(patientA), id)).toMatchObject([
      {
        success: true,
        message: 'Agendamento cancelado com sucesso.',
        // The row as the cancellation left it, so the client stores it without a second read.
        agendamento: {
          id,
          status: 'cancelado',
          pagamento_status: 'cancelado',
        },
      },
    ]);
    expect(await row(id)).toMatchObject({ status: 'cancelado', pagamento_status: 'cancelado' });
    expect(await occupied(id)).toEqual({ _deleted: true });
  });

  it('cancels a confirmed appointment before the notice', async () => {
    const id = await appointment({
      startsIn: `${SELF_CANCEL_NOTICE_HOURS + 1} hours`,
      guide: true,
    });
    expect(await cancelar(user(patientA), id)).toEqual([
      expect.objectContaining({ success: true, message: 'Agendamento cancelado com sucesso.' }),
    ]);
    expect(await row(id)).toMatchObject({ status: 'cancelado', pagamento_status: 'cancelado' });
  });

  it('refuses a confirmed appointment inside the notice, with the policy in the message', async () => {
    const id = await appointment({
      startsIn: `${SELF_CANCEL_NOTICE_HOURS - 1} hours`,
      guide: true,
    });
    expect(await rejection(cancelar(user(patientA), id))).toMatchObject({
      code: 'P0001',
      message: `O cancelamento pelo paciente só é possível até ${SELF_CANCEL_NOTICE_HOURS} horas antes da consulta. Fale com o médico.`,
      hint: 'cancel_too_late',
    });
    expect((await row(id)).status).toBe('confirmado');
  });

  it('keeps a paid payment as paid and says the refund is arranged with the doctor', async () => {
    const id = await appointment({ startsIn: '6 days', guide: true, paid: true });
    expect(await cancelar(user(patientA), id)).toMatchObject([
      {
        success: true,
        message:
          'Agendamento cancelado. O reembolso do valor pago é combinado diretamente com o médico.',
        agendamento: { id, pagamento_status: 'pago' },
      },
    ]);
    expect(await row(id)).toMatchObject({ status: 'cancelado', pagamento_status: 'pago' });
  });

  it('refuses an attended, a cancelled and an expired appointment', async () => {
    const attended = await appointment({ startsIn: '6 days 1 hour', guide: true, paid: true });
    await db.query(`update public.agendamentos set status = 'atendido' where id = $1`, [attended]);
    expect(await rejection(cancelar(user(patientA), attended))).toMatchObject({
      message: 'Não é possível cancelar um atendimento já realizado.',
      hint: 'already_attended',
    });
    const cancelled = await appointment({ startsIn: '6 days 2 hours' });
    await cancelar(user(patientA), cancelled);
    expect(await rejection(cancelar(user(patientA), cancelled))).toMatchObject({
      message: 'Este agendamento já está cancelado ou expirado.',
      hint: 'invalid_state',
    });
    const expired = await appointment({ startsIn: '6 days 3 hours', bookedAgo: '1 hour' });
    expect(await rejection(cancelar(user(patientA), expired))).toMatchObject({
      hint: 'invalid_state',
    });
  });

  it('answers a replayed mutation id with the first result, and refuses it for another target', async () => {
    const id = await appointment({ startsIn: '7 days', guide: true });
    const mutation = randomUUID();
    const first = await cancelar(user(patientA), id, mutation);
    expect(await cancelar(user(patientA), id, mutation)).toEqual(first);
    const other = await appointment({ startsIn: '7 days 1 hour' });
    expect(await rejection(cancelar(user(patientA), other, mutation))).toMatchObject({
      hint: 'mutation_conflict',
    });
    expect((await row(other)).status).toBe('confirmado');
  });
});
