import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_UNPAID_BOOKINGS_PER_DOCTOR,
  MAX_UNPAID_BOOKINGS_TOTAL,
} from '../../src/domain/rules/limits.ts';
import type { Database } from '../../supabase/local/db/index.ts';
import {
  ANON,
  as,
  createAuthUser,
  createDoctor,
  createPatient,
  ensureService,
  migratedDatabase,
  rejection,
  slot,
  user,
  ZONE,
  type Actor,
  type DoctorFixture,
  type TestDatabase,
} from './support.ts';

type Appointment = {
  id: string;
  patient_id: string;
  medico_id: string;
  status: string;
  pagamento_status: string;
  source: string;
  price_in_cents: number;
  horario_inicio: string;
  horario_fim: string;
  appointment_date: string;
  appointment_time: string;
  pagamento_confirmado_em: string | null;
  pagamento_confirmado_por: string | null;
  meeting_link: string | null;
  guia_id: string | null;
  protocolo: string | null;
};

let t: TestDatabase;
let db: Database;
let doctorX: DoctorFixture;
let doctorY: DoctorFixture;
let hidden: DoctorFixture;
let quarter: DoctorFixture;
let patientA: string;
let patientB: string;
let slotCounter = 0;

/**
 * `start` if its 30 minutes end by midnight in São Paulo, else the next day's 00:00: a
 * consultation must fit in one availability block and the fixtures' blocks end at 24:00, so late
 * in the evening the first start past the 20-minute notice is the next day's first.
 */
function fitsTheDay(start: Temporal.Instant): string {
  const local = start.toZonedDateTimeISO(ZONE);
  const midnight = local.toPlainDate().add({ days: 1 }).toZonedDateTime({ timeZone: ZONE });
  const fits = Temporal.ZonedDateTime.compare(local.add({ minutes: 30 }), midnight) <= 0;
  return (fits ? start : midnight.toInstant()).toString();
}

/** A fresh slot per test so tests never collide on the partial unique index. */
const nextSlot = () => slot(slotCounter++);

function agendar(
  actor: Actor,
  medicoId: string,
  start: string,
  mutationId: string | null = randomUUID(),
) {
  return as(db, actor, async (tx) => {
    const { rows } = await tx.query<Appointment>(
      'select * from public.paciente_agendar($1, $2, $3)',
      [medicoId, start, mutationId],
    );
    return rows[0]!;
  });
}

function rpc<T>(actor: Actor, sql: string, params: unknown[]): Promise<T[]> {
  return as(db, actor, async (tx) => (await tx.query<T>(sql, params)).rows);
}

const pagar = (actor: Actor, id: string, mutation: string | null = null) =>
  rpc<Appointment>(actor, 'select * from public.medico_confirmar_pagamento($1, $2)', [
    id,
    mutation,
  ]);
const atender = (actor: Actor, id: string, mutation: string | null = null) =>
  rpc<{ success: boolean; message: string }>(
    actor,
    'select * from public.medico_confirmar_atendimento($1, $2)',
    [id, mutation],
  );
const excluir = (actor: Actor, id: string, mutation: string | null = null) =>
  rpc<{ success: boolean; message: string }>(
    actor,
    'select * from public.medico_excluir_agendamento($1, $2)',
    [id, mutation],
  );
const salvarLink = (
  actor: Actor,
  id: string,
  link: string | null,
  mutation: string | null = null,
) =>
  rpc<Appointment>(actor, 'select * from public.medico_salvar_link($1, $2, $3)', [
    id,
    link,
    mutation,
  ]);
const gerarGuia = (actor: Actor, id: string, mutation: string | null = null) =>
  rpc<Record<string, unknown>>(actor, 'select * from public.paciente_gerar_guia($1, $2)', [
    id,
    mutation,
  ]);

async function row(id: string): Promise<Appointment> {
  const { rows } = await db.query<Appointment>('select * from public.agendamentos where id = $1', [
    id,
  ]);
  return rows[0]!;
}

/** An appointment of doctor X whose consultation already happened (inserted as the server). */
let pastCounter = 0;
async function pastAppointment(pago: boolean): Promise<string> {
  pastCounter += 1;
  const { rows } = await db.query<{ id: string }>(
    `insert into public.agendamentos (patient_id, medico_id, servico_id, appointment_date,
       appointment_time, horario_inicio, horario_fim, price_in_cents, pagamento_status)
     select $1, $2, s.id, current_date - 1, '10:00', now() - interval '1 hour' * $4,
       now() - interval '1 hour' * $4 + interval '30 minutes', 15000, $3
     from public.servicos s where s.nome = 'Teleconsulta'
     returning id`,
    [patientA, doctorX.medicoId, pago ? 'pago' : 'pendente', pastCounter],
  );
  return rows[0]!.id;
}

beforeAll(async () => {
  t = await migratedDatabase();
  db = t.db;
  await ensureService(db);
  doctorX = await createDoctor(db, { name: 'Doutor X', price: 18000 });
  doctorY = await createDoctor(db, { name: 'Doutora Y' });
  hidden = await createDoctor(db, { name: 'Doutor Oculto', publicActive: false });
  quarter = await createDoctor(db, { name: 'Doutora Quinze', interval: 15 });
  patientA = await createPatient(db, 1);
  patientB = await createPatient(db, 2);
});

afterAll(() => t.dispose());

// Each test starts without open unpaid bookings, so the cap on them (tested on its own below)
// refuses nothing elsewhere: what a test booked and left open is cancelled after it.
afterEach(async () => {
  await db.query(
    `update public.agendamentos set status = 'cancelado'
      where status in ('confirmado', 'reagendado', 'pendente') and pagamento_status <> 'pago'`,
  );
});

describe('paciente_agendar', () => {
  it('refuses a visitor with the product-rules message', async () => {
    const e = await rejection(agendar(ANON, doctorX.medicoId, nextSlot()));
    expect(e).toMatchObject({
      code: 'P0001',
      message: 'Acesso negado: Você precisa estar logado como paciente para agendar.',
      hint: 'not_patient',
    });
  });

  it('refuses a doctor with the same message', async () => {
    const e = await rejection(agendar(user(doctorY.userId), doctorX.medicoId, nextSlot()));
    expect(e).toMatchObject({ code: 'P0001', hint: 'not_patient' });
    expect(e.message).toBe('Acesso negado: Você precisa estar logado como paciente para agendar.');
  });

  it('books confirmado/pendente/site for 30 minutes at the price read from the doctor', async () => {
    const start = nextSlot();
    const a = await agendar(user(patientA), doctorX.medicoId, start);
    expect(a).toMatchObject({
      patient_id: patientA,
      medico_id: doctorX.medicoId,
      status: 'confirmado',
      pagamento_status: 'pendente',
      source: 'site',
      price_in_cents: 18000,
    });
    expect(Date.parse(a.horario_inicio)).toBe(Date.parse(start));
    expect(Date.parse(a.horario_fim) - Date.parse(a.horario_inicio)).toBe(30 * 60_000);
    const local = new Date(Date.parse(start) - 3 * 3600_000).toISOString();
    expect(a.appointment_date).toBe(local.slice(0, 10));
    expect(a.appointment_time).toBe(`${local.slice(11, 16)}:00`);
  });

  it('returns the same appointment when a mutation id is replayed', async () => {
    const mutation = randomUUID();
    const start = nextSlot();
    const first = await agendar(user(patientA), doctorX.medicoId, start, mutation);
    const again = await agendar(user(patientA), doctorX.medicoId, start, mutation);
    expect(again.id).toBe(first.id);
    const { rows } = await db.query('select 1 from public.agendamentos where mutation_id = $1', [
      mutation,
    ]);
    expect(rows).toHaveLength(1);
  });

  it("refuses another patient's mutation id instead of returning their appointment", async () => {
    const mutation = randomUUID();
    await agendar(user(patientA), doctorX.medicoId, nextSlot(), mutation);
    const e = await rejection(agendar(user(patientB), doctorX.medicoId, nextSlot(), mutation));
    expect(e).toMatchObject({
      message: 'Esta operação já foi registrada com outros dados.',
      hint: 'mutation_conflict',
    });
  });

  it('requires the doctor and the start', async () => {
    const e = await rejection(
      as(db, user(patientA), (tx) => tx.query('select public.paciente_agendar(null, null, null)')),
    );
    expect(e).toMatchObject({ message: 'Dados incompletos.', hint: 'invalid_params' });
  });

  it('requires a complete profile', async () => {
    const incomplete = await createAuthUser(db, { userMeta: { full_name: 'Sem CPF' } });
    const e = await rejection(agendar(user(incomplete), doctorX.medicoId, nextSlot()));
    expect(e).toMatchObject({
      message: 'Complete seu cadastro (nome completo, CPF e data de nascimento) antes de agendar.',
      hint: 'profile_incomplete',
    });
  });

  it('refuses a doctor who is not public and active', async () => {
    const e = await rejection(agendar(user(patientA), hidden.medicoId, nextSlot()));
    expect(e).toMatchObject({
      message: 'Médico não encontrado ou não está disponível publicamente.',
      hint: 'doctor_unavailable',
    });
  });

  it('accepts a start more than 20 minutes ahead and refuses one within 20 minutes', async () => {
    const fives = await createDoctor(db, { name: 'Doutora Cinco', interval: 5 });
    const step = 5 * 60_000;
    const nextFive = Math.ceil((Date.now() + 1000) / step) * step;
    const within20 = new Date(nextFive + step).toISOString();
    const after20 = fitsTheDay(Temporal.Instant.fromEpochMilliseconds(nextFive + 5 * step));
    const e = await rejection(agendar(user(patientA), fives.medicoId, within20));
    expect(e).toMatchObject({
      message:
        'Este horário não está mais disponível. Escolha um horário com mais de 20 minutos de antecedência.',
      hint: 'slot_in_past',
    });
    await expect(agendar(user(patientA), fives.medicoId, after20)).resolves.toMatchObject({
      status: 'confirmado',
    });
  });

  it.each([
    ['off the 30-minute step', 10],
    ['with seconds', 0.5],
  ])('refuses a start %s', async (_label, offsetMinutes) => {
    const start = new Date(Date.parse(nextSlot()) + offsetMinutes * 60_000).toISOString();
    const e = await rejection(agendar(user(patientA), doctorX.medicoId, start));
    expect(e).toMatchObject({ message: 'Horário fora da agenda do médico.', hint: 'not_on_grid' });
  });

  it('refuses a start whose 30 minutes do not fit in the block', async () => {
    const { rows } = await db.query<{ id: string }>(
      `insert into public.medicos (name, public_name, specialty, crm, uf, is_public, is_active)
       values ('Curta', 'Dra. Curta', 'Pediatria', '1', 'SP', true, true) returning id`,
    );
    const medicoId = rows[0]!.id;
    // 08:00–08:45 every day, 15-minute steps: 08:00 and 08:15 fit, 08:30 does not.
    await db.query(
      `insert into public.agenda_medico (medico_id, dia_semana, hora_inicio, hora_fim, intervalo_em_minutos)
       select $1, d, '08:00', '08:45', 15 from generate_series(0, 6) d`,
      [medicoId],
    );
    const at0800 = slot(0);
    const at0830 = new Date(Date.parse(at0800) + 30 * 60_000).toISOString();
    const at0815 = new Date(Date.parse(at0800) + 15 * 60_000).toISOString();
    const e = await rejection(agendar(user(patientA), medicoId, at0830));
    expect(e.hint).toBe('not_on_grid');
    await expect(agendar(user(patientA), medicoId, at0815)).resolves.toMatchObject({
      status: 'confirmado',
    });
  });

  it('reports a taken slot as 23505 naming agendamentos_slot_unico', async () => {
    const start = nextSlot();
    await agendar(user(patientA), doctorX.medicoId, start);
    const e = await rejection(agendar(user(patientB), doctorX.medicoId, start));
    expect(e.code).toBe('23505');
    expect(e.message).toContain('agendamentos_slot_unico');
    expect(e.hint).toBe('slot_taken');
  });

  it('reports an overlapping slot the same way (30-minute consultations on a 15-minute grid)', async () => {
    const start = nextSlot();
    await agendar(user(patientA), quarter.medicoId, start);
    const overlapping = new Date(Date.parse(start) + 15 * 60_000).toISOString();
    const e = await rejection(agendar(user(patientB), quarter.medicoId, overlapping));
    expect(e.code).toBe('23505');
    expect(e.message).toContain('agendamentos_slot_unico');
    const adjacent = new Date(Date.parse(start) + 30 * 60_000).toISOString();
    await expect(agendar(user(patientB), quarter.medicoId, adjacent)).resolves.toBeTruthy();
  });

  it('needs the Teleconsulta service', async () => {
    await db.query(`update public.servicos set _deleted = true where nome = 'Teleconsulta'`);
    try {
      const e = await rejection(agendar(user(patientA), doctorX.medicoId, nextSlot()));
      expect(e).toMatchObject({
        message: 'Serviço de teleconsulta indisponível.',
        hint: 'service_unavailable',
      });
    } finally {
      await db.query(`update public.servicos set _deleted = false where nome = 'Teleconsulta'`);
    }
  });

  it('frees the slot once the appointment is cancelled', async () => {
    const start = nextSlot();
    const a = await agendar(user(patientA), doctorX.medicoId, start);
    await excluir(user(doctorX.userId), a.id);
    await expect(agendar(user(patientB), doctorX.medicoId, start)).resolves.toMatchObject({
      patient_id: patientB,
    });
  });

  it('projects booked slots into agenda_ocupada and drops them when cancelled', async () => {
    const start = nextSlot();
    const a = await agendar(user(patientA), doctorX.medicoId, start);
    const read = () =>
      as(
        db,
        ANON,
        async (tx) =>
          (
            await tx.query<{ status: string; _deleted: boolean }>(
              'select status, _deleted from public.agenda_ocupada where id = $1',
              [a.id],
            )
          ).rows[0],
      );
    expect(await read()).toEqual({ status: 'confirmado', _deleted: false });
    await excluir(user(doctorX.userId), a.id);
    expect(await read()).toEqual({ status: 'cancelado', _deleted: true });
  });
});

describe('open unpaid bookings per patient', () => {
  const CAP_MESSAGE =
    'Você já tem reservas não pagas demais. Conclua ou cancele uma delas antes de agendar outra.';
  let capCounter = 0;
  const newPatient = () => createPatient(db, 500 + capCounter++);

  it(`refuses the third unpaid booking with one doctor (${MAX_UNPAID_BOOKINGS_PER_DOCTOR} allowed)`, async () => {
    const patient = await newPatient();
    for (let n = 0; n < MAX_UNPAID_BOOKINGS_PER_DOCTOR; n++) {
      await agendar(user(patient), doctorX.medicoId, nextSlot());
    }
    const e = await rejection(agendar(user(patient), doctorX.medicoId, nextSlot()));
    expect(e).toMatchObject({ code: 'P0001', message: CAP_MESSAGE, hint: 'unpaid_limit' });
    // Another doctor still takes a booking.
    await agendar(user(patient), doctorY.medicoId, nextSlot());
  });

  it(`refuses an unpaid booking beyond ${MAX_UNPAID_BOOKINGS_TOTAL} in all`, async () => {
    const patient = await newPatient();
    const extra = await createDoctor(db, { name: 'Doutora Extra' });
    for (const doctor of [doctorX, doctorY, quarter, extra]) {
      await agendar(user(patient), doctor.medicoId, nextSlot());
    }
    const e = await rejection(agendar(user(patient), doctorX.medicoId, nextSlot()));
    expect(e.hint).toBe('unpaid_limit');
  });

  it('counts neither paid nor cancelled bookings', async () => {
    const patient = await newPatient();
    const first = await agendar(user(patient), doctorX.medicoId, nextSlot());
    const second = await agendar(user(patient), doctorX.medicoId, nextSlot());
    await pagar(user(doctorX.userId), first.id);
    await excluir(user(doctorX.userId), second.id);
    await agendar(user(patient), doctorX.medicoId, nextSlot());
    await agendar(user(patient), doctorX.medicoId, nextSlot());
    expect((await rejection(agendar(user(patient), doctorX.medicoId, nextSlot()))).hint).toBe(
      'unpaid_limit',
    );
  });

  it('answers a replay of an accepted booking even at the cap', async () => {
    const patient = await newPatient();
    const mutation = randomUUID();
    const first = await agendar(user(patient), doctorX.medicoId, nextSlot(), mutation);
    await agendar(user(patient), doctorX.medicoId, nextSlot());
    const replay = await agendar(user(patient), doctorX.medicoId, first.horario_inicio, mutation);
    expect(replay.id).toBe(first.id);
  });

  it('holds when one patient books many slots at once', async () => {
    const patient = await newPatient();
    const starts = Array.from({ length: 8 }, () => nextSlot());
    const outcomes = await Promise.allSettled(
      starts.map((s) => agendar(user(patient), doctorX.medicoId, s)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(
      MAX_UNPAID_BOOKINGS_PER_DOCTOR,
    );
    for (const o of outcomes) {
      if (o.status === 'rejected')
        expect((o.reason as { hint?: string }).hint).toBe('unpaid_limit');
    }
  });
});

describe('paciente_gerar_guia', () => {
  it('refuses anyone but a patient', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    for (const actor of [ANON, user(doctorX.userId)]) {
      const e = await rejection(gerarGuia(actor, a.id));
      expect(e).toMatchObject({
        message: 'Acesso negado: Você precisa estar logado como paciente para gerar a guia.',
        hint: 'not_patient',
      });
    }
  });

  it("does not reveal another patient's appointment", async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    const e = await rejection(gerarGuia(user(patientB), a.id));
    expect(e).toMatchObject({ message: 'Agendamento não encontrado.', hint: 'not_found' });
  });

  it('issues a guide with protocol, QR text and snapshots, once', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    const [guia] = await gerarGuia(user(patientA), a.id, randomUUID());
    expect(guia!.protocolo).toMatch(/^SJ-\d{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    expect(guia!.qr_text).toBe(`SAUDEJA:GUIA:${String(guia!.protocolo)}:${a.id}`);
    expect(guia!.paciente_snapshot).toMatchObject({ nome: 'Paciente 1', data_nasc: '1990-05-10' });
    expect(guia!.medico_snapshot).toEqual({
      nome: 'Doutor X',
      especialidade: 'Clínica Geral',
      crm: '123456/SP',
    });
    expect(guia!.servico_snapshot).toEqual({
      nome: 'Teleconsulta',
      data: a.appointment_date,
      hora: a.appointment_time.slice(0, 5),
      preco_centavos: 18000,
    });
    const [again] = await gerarGuia(user(patientA), a.id, randomUUID());
    expect(again!.id).toBe(guia!.id);
    expect(await row(a.id)).toMatchObject({ guia_id: guia!.id, protocolo: guia!.protocolo });
  });

  it('refuses a cancelled appointment', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    await excluir(user(doctorX.userId), a.id);
    const e = await rejection(gerarGuia(user(patientA), a.id));
    expect(e).toMatchObject({
      message: 'Não é possível gerar a guia de um agendamento cancelado ou expirado.',
      hint: 'invalid_state',
    });
  });
});

describe('doctor actions: who may act', () => {
  it.each([
    ['medico_confirmar_pagamento', pagar, 'Apenas médicos podem confirmar pagamentos.'],
    ['medico_confirmar_atendimento', atender, 'Apenas médicos podem confirmar atendimentos.'],
    ['medico_excluir_agendamento', excluir, 'Apenas médicos podem cancelar agendamentos.'],
    [
      'medico_salvar_link',
      (actor: Actor, id: string) => salvarLink(actor, id, 'https://meet.example.com/x'),
      'Apenas médicos podem adicionar links de consulta.',
    ],
  ] as const)('%s refuses patients and visitors', async (_name, call, message) => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    for (const actor of [ANON, user(patientA)]) {
      const e = await rejection(call(actor, a.id));
      expect(e).toMatchObject({ code: 'P0001', message, hint: 'not_doctor' });
    }
    expect(await row(a.id)).toMatchObject({ status: 'confirmado', pagamento_status: 'pendente' });
  });

  it('refuses a medico whose doctor record is not linked', async () => {
    const unlinked = await createAuthUser(db, { appMeta: { role: 'medico' } });
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    const e = await rejection(pagar(user(unlinked), a.id));
    expect(e).toMatchObject({
      message: 'Seu perfil de médico não foi encontrado.',
      hint: 'doctor_not_linked',
    });
  });

  it("refuses another doctor's appointment", async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    for (const call of [pagar, atender, excluir]) {
      const e = await rejection(call(user(doctorY.userId), a.id));
      expect(e).toMatchObject({
        message: 'Este agendamento não pertence à sua agenda.',
        hint: 'not_owner',
      });
    }
    expect(await row(a.id)).toMatchObject({ status: 'confirmado', pagamento_status: 'pendente' });
  });

  it('requires the appointment id', async () => {
    const e = await rejection(pagar(user(doctorX.userId), null as unknown as string));
    expect(e).toMatchObject({ message: 'Dados incompletos.', hint: 'invalid_params' });
    const g = await rejection(gerarGuia(user(patientA), null as unknown as string));
    expect(g).toMatchObject({ message: 'Dados incompletos.', hint: 'invalid_params' });
  });

  it('reports an unknown appointment', async () => {
    const e = await rejection(pagar(user(doctorX.userId), randomUUID()));
    expect(e).toMatchObject({ message: 'Agendamento não encontrado.', hint: 'not_found' });
  });
});

describe('medico_confirmar_pagamento', () => {
  it('marks paid, confirmed, with time and confirming user', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    const [paid] = await pagar(user(doctorX.userId), a.id);
    expect(paid).toMatchObject({
      pagamento_status: 'pago',
      status: 'confirmado',
      pagamento_confirmado_por: doctorX.userId,
    });
    expect(paid!.pagamento_confirmado_em).not.toBeNull();
  });

  it('refuses a second confirmation, but a replay returns the first result', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    const mutation = randomUUID();
    const [first] = await pagar(user(doctorX.userId), a.id, mutation);
    const [replay] = await pagar(user(doctorX.userId), a.id, mutation);
    expect(replay).toEqual(first);
    const e = await rejection(pagar(user(doctorX.userId), a.id));
    expect(e).toMatchObject({
      message: 'O pagamento deste agendamento já foi confirmado.',
      hint: 'already_paid',
    });
  });

  it('refuses a mutation id already used for another operation', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    const mutation = randomUUID();
    await pagar(user(doctorX.userId), a.id, mutation);
    const e = await rejection(
      salvarLink(user(doctorX.userId), a.id, 'https://meet.example.com/a', mutation),
    );
    expect(e.hint).toBe('mutation_conflict');
  });

  it('refuses a cancelled appointment', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    await excluir(user(doctorX.userId), a.id);
    const e = await rejection(pagar(user(doctorX.userId), a.id));
    expect(e).toMatchObject({
      message: 'Não é possível confirmar o pagamento de um agendamento cancelado ou expirado.',
      hint: 'invalid_state',
    });
  });
});

describe('medico_confirmar_atendimento', () => {
  it('requires the payment first', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    const e = await rejection(atender(user(doctorX.userId), a.id));
    expect(e).toMatchObject({
      message: 'O pagamento precisa estar confirmado antes do check-in.',
      hint: 'payment_pending',
    });
  });

  it('checks in a paid appointment and answers [{success, message, agendamento}]', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    await pagar(user(doctorX.userId), a.id);
    const mutation = randomUUID();
    const result = await atender(user(doctorX.userId), a.id, mutation);
    expect((await row(a.id)).status).toBe('atendido');
    // The row as the check-in left it, so the client stores it without a second request.
    expect(result).toMatchObject([
      {
        success: true,
        message: 'Atendimento confirmado com sucesso.',
        agendamento: { id: a.id, status: 'atendido' },
      },
    ]);
    expect(await atender(user(doctorX.userId), a.id, mutation)).toEqual(result);
    const e = await rejection(atender(user(doctorX.userId), a.id));
    expect(e).toMatchObject({
      message: 'O atendimento deste agendamento já foi confirmado.',
      hint: 'already_attended',
    });
  });

  it('refuses a cancelled appointment', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    await pagar(user(doctorX.userId), a.id);
    await excluir(user(doctorX.userId), a.id);
    const e = await rejection(atender(user(doctorX.userId), a.id));
    expect(e).toMatchObject({
      message: 'Não é possível confirmar o atendimento de um agendamento cancelado ou expirado.',
      hint: 'invalid_state',
    });
  });
});

describe('medico_excluir_agendamento', () => {
  it('cancels, cancelling an unpaid payment, and answers [{success, message, agendamento}]', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    const mutation = randomUUID();
    const result = await excluir(user(doctorX.userId), a.id, mutation);
    expect(result).toMatchObject([
      {
        success: true,
        message: 'Agendamento cancelado com sucesso.',
        agendamento: {
          id: a.id,
          status: 'cancelado',
          pagamento_status: 'cancelado',
        },
      },
    ]);
    expect(await row(a.id)).toMatchObject({ status: 'cancelado', pagamento_status: 'cancelado' });
    expect(await excluir(user(doctorX.userId), a.id, mutation)).toEqual(result);
    const e = await rejection(excluir(user(doctorX.userId), a.id));
    expect(e).toMatchObject({
      message: 'Este agendamento já está cancelado ou expirado.',
      hint: 'invalid_state',
    });
  });

  it('keeps a paid payment as paid', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    await pagar(user(doctorX.userId), a.id);
    await excluir(user(doctorX.userId), a.id);
    expect(await row(a.id)).toMatchObject({ status: 'cancelado', pagamento_status: 'pago' });
  });

  it('refuses an attended appointment', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    await pagar(user(doctorX.userId), a.id);
    await atender(user(doctorX.userId), a.id);
    const e = await rejection(excluir(user(doctorX.userId), a.id));
    expect(e).toMatchObject({
      message: 'Não é possível cancelar um atendimento já realizado.',
      hint: 'already_attended',
    });
  });
});

describe('medico_salvar_link', () => {
  it.each(['http://meet.example.com/x', 'javascript:alert(1)', 'https://', '', null])(
    'refuses %j',
    async (link) => {
      const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
      const e = await rejection(salvarLink(user(doctorX.userId), a.id, link));
      expect(e).toMatchObject({
        message: 'Informe um link válido começando com https://.',
        hint: 'invalid_link',
      });
    },
  );

  it('saves an https link', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    const [saved] = await salvarLink(
      user(doctorX.userId),
      a.id,
      ' https://meet.example.com/abc-def ',
    );
    expect(saved!.meeting_link).toBe('https://meet.example.com/abc-def');
  });

  it('returns the first result when a link save is replayed', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    const mutation = randomUUID();
    const [first] = await salvarLink(
      user(doctorX.userId),
      a.id,
      'https://meet.example.com/1',
      mutation,
    );
    const [replay] = await salvarLink(
      user(doctorX.userId),
      a.id,
      'https://meet.example.com/1',
      mutation,
    );
    expect(replay).toEqual(first);
  });

  it('refuses a cancelled appointment', async () => {
    const a = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    await excluir(user(doctorX.userId), a.id);
    const e = await rejection(salvarLink(user(doctorX.userId), a.id, 'https://meet.example.com/x'));
    expect(e).toMatchObject({
      message: 'Não é possível adicionar link a um agendamento cancelado ou expirado.',
      hint: 'invalid_state',
    });
  });
});

describe('expiry of unpaid appointments', () => {
  it('expires unpaid appointments whose time passed, not paid ones', async () => {
    const unpaid = await pastAppointment(false);
    const paid = await pastAppointment(true);
    const upcoming = await agendar(user(patientA), doctorX.medicoId, nextSlot());
    const { rows } = await as(db, { kind: 'service' }, (tx) =>
      tx.query<{ n: number }>('select public.expire_unpaid_appointments() as n'),
    );
    expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(1);
    expect((await row(unpaid)).status).toBe('expirado');
    expect((await row(paid)).status).toBe('confirmado');
    expect((await row(upcoming.id)).status).toBe('confirmado');
  });

  it('is not callable by API users', async () => {
    const e = await rejection(
      as(db, user(doctorX.userId), (tx) => tx.query('select public.expire_unpaid_appointments()')),
    );
    expect(e.code).toBe('42501');
  });

  it('applies to a due appointment even before the job ran', async () => {
    const due = await pastAppointment(false);
    const e = await rejection(pagar(user(doctorX.userId), due));
    expect(e.hint).toBe('invalid_state');
  });
});
