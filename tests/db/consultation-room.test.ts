import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../supabase/local/db/index.ts';
import {
  DEFAULT_ROOM_CHOICE,
  ROOM_CHOICES,
  ROOM_EVENTS,
  ROOM_NOT_OPEN_TEXT,
  roomWindow,
} from '../../src/domain/rules/consultation-room.ts';
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
 * The consultation room's record on the appointment (migration 20261127000000, CONTRACT.md
 * "Consultation room"): registrar_evento_sala, the room's window and who may use it, and the
 * doctor's room choice.
 */

type Room = {
  id: string;
  sala_paciente_entrou_em: string | null;
  chamada_iniciada_em: string | null;
  chamada_encerrada_em: string | null;
  chamada_duracao_segundos: number | null;
  chamada_so_audio: boolean;
};

let t: TestDatabase;
let db: Database;
let patient: string;
let otherPatient: string;
let otherDoctor: DoctorFixture;
let n = 0;

beforeAll(async () => {
  t = await migratedDatabase();
  db = t.db;
  await ensureService(db);
  patient = await createPatient(db, 41);
  otherPatient = await createPatient(db, 42);
  otherDoctor = await createDoctor(db, { name: 'Outra Médica' });
});

afterAll(() => t.dispose());

/**
 * An appointment of `patient` with a doctor of its own (so appointments never overlap),
 * starting `startsIn` from now (a Postgres interval), paid unless `paid: false`.
 */
async function appointment(
  opts: { startsIn?: string; paid?: boolean; status?: string; bookedAgo?: string } = {},
): Promise<{ id: string; doctor: DoctorFixture }> {
  const doctor = await createDoctor(db, { name: `Doutora Sala ${++n}` });
  const { rows } = await db.query<{ id: string }>(
    `insert into public.agendamentos (patient_id, medico_id, servico_id, appointment_date,
       appointment_time, horario_inicio, horario_fim, price_in_cents, status, pagamento_status,
       created_at)
     select $1, $2, s.id, current_date, '10:00', date_trunc('minute', now() + $3::interval),
       date_trunc('minute', now() + $3::interval) + interval '30 minutes', 15000, $4, $5,
       now() - $6::interval
     from public.servicos s where s.nome = 'Teleconsulta'
     returning id`,
    [
      patient,
      doctor.medicoId,
      opts.startsIn ?? '10 minutes',
      opts.status ?? 'confirmado',
      opts.paid === false ? 'pendente' : 'pago',
      opts.bookedAgo ?? '0 seconds',
    ],
  );
  return { id: rows[0]!.id, doctor };
}

const registrar = (
  actor: Actor,
  id: string | null,
  evento: string | null,
  mutation: string | null = randomUUID(),
) =>
  as(db, actor, async (tx) => {
    const { rows } = await tx.query<Room>(
      'select * from public.registrar_evento_sala($1, $2, $3)',
      [id, evento, mutation],
    );
    return rows[0]!;
  });

async function room(id: string): Promise<Room> {
  const { rows } = await db.query<Room>('select * from public.agendamentos where id = $1', [id]);
  return rows[0]!;
}

describe('the room window', () => {
  it('opens and closes as src/domain/rules/consultation-room.ts says', async () => {
    // A morning consultation closes at the end of its São Paulo day; one late in the evening
    // stays open for the hours after its end.
    for (const start of ['2026-11-23T13:00:00Z', '2026-11-24T02:30:00Z', '2026-11-24T01:00:00Z']) {
      const end = Temporal.Instant.from(start).add({ minutes: 30 }).toString();
      const { rows } = await db.query<{ abre: string; fecha: string }>(
        `select to_json(app_private.sala_abre_em(a))#>>'{}' as abre,
                to_json(app_private.sala_fecha_em(a))#>>'{}' as fecha
         from jsonb_populate_record(null::public.agendamentos,
                jsonb_build_object('horario_inicio', $1::text, 'horario_fim', $2::text)) a`,
        [start, end],
      );
      const expected = roomWindow({ horario_inicio: start, horario_fim: end })!;
      expect(Temporal.Instant.from(rows[0]!.abre).equals(expected.opensAt)).toBe(true);
      expect(Temporal.Instant.from(rows[0]!.fecha).equals(expected.closesAt)).toBe(true);
    }
  });

  it('refuses events before it opens and after it closes', async () => {
    const early = await appointment({ startsIn: '31 minutes' });
    expect(await rejection(registrar(user(patient), early.id, 'paciente_entrou'))).toMatchObject({
      code: 'P0001',
      hint: 'room_not_open',
      message: ROOM_NOT_OPEN_TEXT,
    });
    const justOpen = await appointment({ startsIn: '29 minutes' });
    expect(await registrar(user(patient), justOpen.id, 'paciente_entrou')).toMatchObject({
      id: justOpen.id,
    });
    const yesterday = await appointment({ startsIn: '-1 day -3 hours' });
    expect(
      await rejection(registrar(user(yesterday.doctor.userId), yesterday.id, 'chamada_iniciada')),
    ).toMatchObject({ code: 'P0001', hint: 'room_closed' });
  });
});

describe('registrar_evento_sala', () => {
  it('records the patient entering the waiting room, the latest entry', async () => {
    const a = await appointment();
    const first = await registrar(user(patient), a.id, 'paciente_entrou');
    expect(first.sala_paciente_entrou_em).not.toBeNull();
    await db.query(
      `update public.agendamentos set sala_paciente_entrou_em = now() - interval '5 minutes'
       where id = $1`,
      [a.id],
    );
    const again = await registrar(user(patient), a.id, 'paciente_entrou');
    expect(Date.parse(again.sala_paciente_entrou_em!)).toBeGreaterThan(
      Date.parse((await room(a.id)).sala_paciente_entrou_em!) - 1000,
    );
    expect(Date.now() - Date.parse(again.sala_paciente_entrou_em!)).toBeLessThan(60_000);
  });

  it('lets only the doctor start the call and only the patient enter the waiting room', async () => {
    const a = await appointment();
    expect(await rejection(registrar(user(patient), a.id, 'chamada_iniciada'))).toMatchObject({
      code: 'P0001',
      hint: 'not_doctor',
      message: 'Apenas o médico pode iniciar a consulta.',
    });
    expect(
      await rejection(registrar(user(a.doctor.userId), a.id, 'paciente_entrou')),
    ).toMatchObject({ code: 'P0001', hint: 'not_patient' });
    expect((await room(a.id)).chamada_iniciada_em).toBeNull();
  });

  it('records start, audio fallback and end, with the duration computed by the server', async () => {
    const a = await appointment();
    const started = await registrar(user(a.doctor.userId), a.id, 'chamada_iniciada');
    expect(started.chamada_iniciada_em).not.toBeNull();
    expect(started.chamada_encerrada_em).toBeNull();
    expect((await registrar(user(patient), a.id, 'so_audio')).chamada_so_audio).toBe(true);
    // Twelve minutes in (the start moved back rather than waiting).
    await db.query(
      `update public.agendamentos set chamada_iniciada_em = now() - interval '12 minutes 5 seconds'
       where id = $1`,
      [a.id],
    );
    const ended = await registrar(user(patient), a.id, 'chamada_encerrada');
    expect(ended.chamada_encerrada_em).not.toBeNull();
    expect(ended.chamada_duracao_segundos).toBeGreaterThanOrEqual(725);
    expect(ended.chamada_duracao_segundos).toBeLessThan(725 + 60);
    // The other side hanging up a moment later changes nothing.
    const second = await registrar(user(a.doctor.userId), a.id, 'chamada_encerrada');
    expect(second).toEqual(ended);
  });

  it('resumes a call started again after an end, keeping the first start', async () => {
    const a = await appointment();
    const started = await registrar(user(a.doctor.userId), a.id, 'chamada_iniciada');
    await registrar(user(a.doctor.userId), a.id, 'chamada_encerrada');
    const resumed = await registrar(user(a.doctor.userId), a.id, 'chamada_iniciada');
    expect(resumed.chamada_iniciada_em).toEqual(started.chamada_iniciada_em);
    expect(resumed.chamada_encerrada_em).toBeNull();
    expect(resumed.chamada_duracao_segundos).toBeNull();
  });

  it('refuses an end before any start', async () => {
    const a = await appointment();
    expect(await rejection(registrar(user(patient), a.id, 'chamada_encerrada'))).toMatchObject({
      code: 'P0001',
      hint: 'call_not_started',
      message: 'A consulta ainda não foi iniciada.',
    });
  });

  it('answers anyone but the two people as if the appointment did not exist', async () => {
    const a = await appointment();
    for (const [actor, evento] of [
      [user(otherPatient), 'paciente_entrou'],
      [user(otherDoctor.userId), 'chamada_iniciada'],
      [user(otherDoctor.userId), 'chamada_encerrada'],
    ] as const) {
      expect(await rejection(registrar(actor, a.id, evento))).toMatchObject({
        code: 'P0001',
        hint: 'not_found',
        message: 'Agendamento não encontrado.',
      });
    }
    expect(await rejection(registrar(user(patient), randomUUID(), 'so_audio'))).toMatchObject({
      hint: 'not_found',
    });
    expect(await rejection(registrar(ANON, a.id, 'paciente_entrou'))).toMatchObject({
      code: 'P0001',
      hint: 'not_signed_in',
    });
    expect(await room(a.id)).toMatchObject({
      sala_paciente_entrou_em: null,
      chamada_iniciada_em: null,
    });
  });

  it('validates its input', async () => {
    const a = await appointment();
    expect(await rejection(registrar(user(patient), a.id, 'gravar_video'))).toMatchObject({
      code: 'P0001',
      hint: 'invalid_params',
      message: 'Evento da sala inválido.',
    });
    expect(await rejection(registrar(user(patient), null, 'so_audio'))).toMatchObject({
      hint: 'invalid_params',
      message: 'Dados incompletos.',
    });
    expect(await rejection(registrar(user(patient), a.id, null))).toMatchObject({
      hint: 'invalid_params',
    });
  });

  it('accepts every event of src/domain/rules/consultation-room.ts from someone', async () => {
    const a = await appointment();
    for (const evento of ROOM_EVENTS) {
      const actor = evento === 'paciente_entrou' ? user(patient) : user(a.doctor.userId);
      expect((await registrar(actor, a.id, evento)).id).toBe(a.id);
    }
  });

  it('refuses cancelled and expired appointments', async () => {
    const cancelled = await appointment({ status: 'cancelado' });
    const expired = await appointment({ status: 'expirado', paid: false });
    // An abandoned checkout hold is expired even before the job ran.
    const hold = await appointment({ paid: false, bookedAgo: '1 hour' });
    for (const a of [cancelled, expired, hold]) {
      expect(await rejection(registrar(user(patient), a.id, 'paciente_entrou'))).toMatchObject({
        code: 'P0001',
        hint: 'invalid_state',
        message: 'Esta consulta foi cancelada ou expirou.',
      });
    }
  });

  it('keeps a call already under way when an unpaid appointment reaches its end', async () => {
    const a = await appointment({ startsIn: '-25 minutes', paid: false });
    await db.query('update public.agendamentos set guia_id = null where id = $1', [a.id]);
    await registrar(user(a.doctor.userId), a.id, 'chamada_iniciada');
    await db.query(
      `update public.agendamentos set horario_fim = now() - interval '1 minute',
         status = 'expirado' where id = $1`,
      [a.id],
    );
    const ended = await registrar(user(patient), a.id, 'chamada_encerrada');
    expect(ended.chamada_encerrada_em).not.toBeNull();
  });

  it('[O2] answers a replay with the first result and refuses a reused id', async () => {
    const a = await appointment();
    const mutation = randomUUID();
    const first = await registrar(user(patient), a.id, 'paciente_entrou', mutation);
    await db.query(
      `update public.agendamentos set sala_paciente_entrou_em = now() - interval '1 hour'
       where id = $1`,
      [a.id],
    );
    expect(await registrar(user(patient), a.id, 'paciente_entrou', mutation)).toEqual(first);
    expect(await rejection(registrar(user(patient), a.id, 'so_audio', mutation))).toMatchObject({
      code: 'P0001',
      hint: 'mutation_conflict',
    });
    expect(
      await rejection(registrar(user(a.doctor.userId), a.id, 'paciente_entrou', mutation)),
    ).toMatchObject({ code: 'P0001' });
  });

  it('is the only writer of the room columns', async () => {
    const a = await appointment();
    for (const actor of [user(patient), user(a.doctor.userId)]) {
      const e = await rejection(
        as(db, actor, (tx) =>
          tx.query('update public.agendamentos set chamada_so_audio = true where id = $1', [a.id]),
        ),
      );
      expect(e.code).toBe('42501');
    }
  });
});

describe('sala_consulta_recusa', () => {
  it('tells the service role why a user may not use a room, and nobody else', async () => {
    const a = await appointment();
    const ask = (actor: Actor, who: string, id = a.id) =>
      as(db, actor, async (tx) => {
        const { rows } = await tx.query<{ recusa: { motivo: string } | null }>(
          'select public.sala_consulta_recusa($1, $2) as recusa',
          [id, who],
        );
        return rows[0]!.recusa?.motivo ?? null;
      });
    expect(await ask(SERVICE, patient)).toBeNull();
    expect(await ask(SERVICE, a.doctor.userId)).toBeNull();
    expect(await ask(SERVICE, otherPatient)).toBe('not_found');
    expect(await ask(SERVICE, patient, randomUUID())).toBe('not_found');
    const later = await appointment({ startsIn: '2 hours' });
    expect(await ask(SERVICE, patient, later.id)).toBe('room_not_open');
    const { rows } = await db.query<{ recusa: unknown }>(
      'select public.sala_consulta_recusa($1, $2) as recusa',
      [later.id, patient],
    );
    expect(rows[0]!.recusa).toEqual({ motivo: 'room_not_open', mensagem: ROOM_NOT_OPEN_TEXT });
    for (const actor of [ANON, user(patient)]) {
      expect((await rejection(ask(actor, patient))).code).toBe('42501');
    }
  });
});

describe('medicos.sala_consulta', () => {
  it('defaults to the built-in room and takes only the choices of the product', async () => {
    const { rows } = await db.query<{ sala_consulta: string }>(
      'select sala_consulta from public.medicos where id = $1',
      [otherDoctor.medicoId],
    );
    expect(rows[0]!.sala_consulta).toBe(DEFAULT_ROOM_CHOICE);
    const { rows: checks } = await db.query<{ def: string }>(
      `select pg_get_constraintdef(oid) as def from pg_constraint
       where conname = 'medicos_sala_consulta_valida'`,
    );
    for (const choice of ROOM_CHOICES) expect(checks[0]!.def).toContain(`'${choice}'`);
  });

  it('is the doctor’s own to change', async () => {
    const set = (actor: Actor, value: string) =>
      as(db, actor, async (tx) => {
        const { rows } = await tx.query<{ sala_consulta: string }>(
          'update public.medicos set sala_consulta = $1 where id = $2 returning sala_consulta',
          [value, otherDoctor.medicoId],
        );
        return rows;
      });
    expect(await set(user(otherDoctor.userId), 'link_externo')).toEqual([
      { sala_consulta: 'link_externo' },
    ]);
    expect((await rejection(set(user(otherDoctor.userId), 'zoom'))).code).toBe('23514');
    expect(await set(user(patient), 'integrada')).toEqual([]);
    expect(await set(user(otherDoctor.userId), 'integrada')).toEqual([
      { sala_consulta: 'integrada' },
    ]);
  });
});
