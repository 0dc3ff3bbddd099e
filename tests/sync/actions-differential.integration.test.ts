import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { SupabaseClient } from '@supabase/supabase-js';
import { Temporal } from 'temporal-polyfill';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ROOM_EVENTS } from '../../src/domain/rules/consultation-room.ts';
import {
  MUTATIONS,
  mayQueue,
  type ActorRole,
  type MutationInput,
} from '../../sync/outbox/mutations.ts';
import { overlayAppointments } from '../../sync/outbox/overlay.ts';
import { enqueue } from '../../sync/outbox/queue.ts';
import { EMPTY_OUTBOX } from '../../sync/outbox/types.ts';
import { rowToDoc, type ServerRow } from '../../sync/row.ts';
import type { AgendamentoDoc } from '../../sync/schemas.ts';
import { TABLES } from '../../sync/tables.ts';
import {
  ZONE,
  createDoctor,
  createPatient,
  platformForFile,
  signedInClient,
  type Person,
} from '../../sync/testing/index.ts';

/**
 * The overlay can never drift from the SQL (sync/SPEC.md O6): every action of
 * sync/outbox/mutations.ts is sent to the real server from every state the actions can reach,
 * and whenever the server applies it, the appointment the overlay showed while it was queued
 * must be the row the server stored — column for column, except the server's own clock (set on
 * both sides) and ids only the server picks (`serverClock`, `serverAssigned`). A refused action
 * must leave the row as it was, since the overlay then shows the stored row again.
 *
 * A state is what the SQL functions branch on (status, payment, guide, call started, call ended).
 * Two appointments are walked: one days away (the room closed, the patient's notice not yet
 * passed) and one starting in about 25 minutes (the room open, inside the notice). From each
 * state reached, every action is tried on the same appointment, which is put back into that
 * state between tries. Besides the booking, the walk starts from the states no action produces
 * but the server holds: expirado (the expiry job) and the statuses of rows from before the app,
 * such as an attended consultation whose payment was never confirmed (the doctor is offered
 * 'Confirmar Pagamento' there, and the SQL keeps it atendido).
 */
const t = platformForFile();

const SPEC = TABLES.find((s) => s.name === 'agendamentos')!;
const PRICE = 15000;

/** Statuses and payments the server's job (expiry) or older rows give an appointment. */
const SERVER_STATES = [
  ['expirado', 'pendente'],
  ['atendido', 'pendente'],
  ['pendente', 'pendente'],
  ['reagendado', 'pendente'],
] as const;

/** Bookkeeping of the replication, not the appointment. */
const NOT_COMPARED = new Set(['server_modified', '_deleted']);

type Actors = Record<ActorRole, { person: Person; client: SupabaseClient }>;

/** Every action with every argument that changes what the server does, as each role may send it. */
function variants(): { input: MutationInput; role: ActorRole }[] {
  const inputs: MutationInput[] = [
    { kind: 'generate_guide', args: {} },
    { kind: 'confirm_payment', args: {} },
    { kind: 'check_in', args: {} },
    { kind: 'cancel', args: {} },
    { kind: 'patient_cancel', args: {} },
    { kind: 'save_meeting_link', args: { link: 'https://meet.example.com/consulta' } },
    ...ROOM_EVENTS.map((evento): MutationInput => ({ kind: 'room_event', args: { evento } })),
  ];
  const kinds = new Set(inputs.map((i) => i.kind));
  // A new action in the registry must be walked here too.
  expect([...kinds, 'book'].sort()).toEqual(Object.keys(MUTATIONS).sort());
  return inputs.flatMap((input) =>
    (['paciente', 'medico'] as const)
      .filter((role) => mayQueue(input.kind, input.args as never, role))
      .map((role) => ({ input, role })),
  );
}

function label(input: MutationInput, role: ActorRole): string {
  return input.kind === 'room_event' ? `room_event ${input.args.evento} (${role})` : input.kind;
}

async function stored(id: string): Promise<AgendamentoDoc> {
  const read: { data: unknown; error: Error | null } = await t.admin
    .from('agendamentos')
    .select('*')
    .eq('id', id)
    .single();
  if (read.error) throw read.error;
  return rowToDoc(SPEC, read.data as ServerRow) as unknown as AgendamentoDoc;
}

function stateKey(doc: AgendamentoDoc): string {
  return JSON.stringify([
    doc.status,
    doc.pagamento_status,
    doc.guia_id !== null,
    doc.chamada_iniciada_em !== null,
    doc.chamada_encerrada_em !== null,
  ]);
}

/** The appointment's SQL row and its guide's, to put back between tries. */
type Snapshot = { row: unknown; guide: unknown };

async function snapshotOf(id: string): Promise<Snapshot> {
  const { rows } = await t.platform.ctx.db.query<Snapshot>(
    `select to_jsonb(a) as row,
            (select to_jsonb(g) from public.guias g where g.agendamento_id = a.id) as guide
       from public.agendamentos a where a.id = $1`,
    [id],
  );
  return rows[0]!;
}

/** Puts the appointment and its guide back as they were in `snapshot`. */
async function restore(id: string, snapshot: Snapshot): Promise<void> {
  const db = t.platform.ctx.db;
  const guide = snapshot.guide as { id: string } | null;
  await db.query('update public.agendamentos set guia_id = null where id = $1', [id]);
  await db.query(
    'delete from public.guias where agendamento_id = $1 and id is distinct from $2::uuid',
    [id, guide?.id ?? null],
  );
  if (guide) {
    await db.query(
      `insert into public.guias select * from jsonb_populate_record(null::public.guias, $1::jsonb)
       on conflict (id) do nothing`,
      [JSON.stringify(guide)],
    );
  }
  await db.query(
    `update public.agendamentos a set
       (status, pagamento_status, pagamento_confirmado_em, pagamento_confirmado_por, meeting_link,
        guia_id, protocolo, sala_paciente_entrou_em, chamada_iniciada_em, chamada_encerrada_em,
        chamada_duracao_segundos, chamada_so_audio) =
       (r.status, r.pagamento_status, r.pagamento_confirmado_em, r.pagamento_confirmado_por,
        r.meeting_link, r.guia_id, r.protocolo, r.sala_paciente_entrou_em, r.chamada_iniciada_em,
        r.chamada_encerrada_em, r.chamada_duracao_segundos, r.chamada_so_audio)
     from jsonb_populate_record(null::public.agendamentos, $1::jsonb) r
     where a.id = $2`,
    [JSON.stringify(snapshot.row), id],
  );
}

/** Columns where the overlay's appointment and the server's row differ, for this action. */
function differences(
  kind: MutationInput['kind'],
  predicted: AgendamentoDoc,
  server: AgendamentoDoc,
): string[] {
  const { serverClock, serverAssigned } = MUTATIONS[kind];
  const out: string[] = [];
  for (const key of Object.keys(server) as (keyof AgendamentoDoc)[]) {
    if (NOT_COMPARED.has(key) || serverAssigned.includes(key)) continue;
    const [p, s] = [predicted[key] ?? null, server[key] ?? null];
    const same = serverClock.includes(key)
      ? (p === null) === (s === null)
      : isDeepStrictEqual(p, s);
    if (!same) out.push(`${key}: overlay ${JSON.stringify(p)}, server ${JSON.stringify(s)}`);
  }
  return out;
}

type Outcome =
  | {
      applied: true;
      predicted: AgendamentoDoc;
      server: AgendamentoDoc;
      answered: AgendamentoDoc | null;
    }
  | {
      applied: false;
      reason: string;
      before: AgendamentoDoc | null;
      server: AgendamentoDoc | null;
    };

/**
 * Sends one action as the engine does (the registry's RPC, parameters and answer schema) and
 * returns what the overlay showed while it was queued beside what the server stored.
 */
async function act(
  actors: Actors,
  role: ActorRole,
  input: MutationInput,
  appointmentId: string | null,
): Promise<Outcome & { id: string }> {
  const action = MUTATIONS[input.kind];
  const mutationId = randomUUID();
  const before = appointmentId ? await stored(appointmentId) : null;
  const outbox = enqueue(EMPTY_OUTBOX, input, {
    id: mutationId,
    appointmentId: appointmentId ?? mutationId,
    createdAt: Temporal.Now.instant().toString(),
  });
  const [shown] = overlayAppointments(before ? [before] : [], outbox, {
    userId: actors[role].person.id,
    priceInCents: () => PRICE,
  });
  const { sync: _mark, ...predicted } = shown!;
  const params = action.params(input.args as never, {
    appointmentId: appointmentId ?? mutationId,
    mutationId,
  });
  const sent: { data: unknown; error: { hint?: string; code?: string } | null } = await actors[
    role
  ].client.rpc(action.rpc, params);
  const { error } = sent;
  const answer = error ? null : v.parse(action.answer, sent.data);
  if (!answer || !answer.applied) {
    const id = appointmentId ?? '';
    return {
      id,
      applied: false,
      reason: error ? (error.hint ?? error.code ?? 'error') : 'success: false',
      before,
      server: appointmentId ? await stored(appointmentId) : null,
    };
  }
  const id = appointmentId ?? String(answer.appointment?.id);
  return {
    id,
    applied: true,
    predicted,
    server: await stored(id),
    answered: answer.appointment
      ? (rowToDoc(SPEC, answer.appointment) as unknown as AgendamentoDoc)
      : null,
  };
}

/** The start of the first 5-minute slot at least `minutes` from now, as an ISO instant. */
function startIn(minutes: number): string {
  const at = Temporal.Now.instant().add({ minutes });
  const epochMinutes = Math.ceil(at.epochMilliseconds / 60_000 / 5) * 5;
  return Temporal.Instant.fromEpochMilliseconds(epochMinutes * 60_000).toString();
}

/** `time` in São Paulo, three days from now. */
function daysAway(time: string): string {
  return Temporal.Now.zonedDateTimeISO(ZONE)
    .toPlainDate()
    .add({ days: 3 })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from(time) })
    .toInstant()
    .toString();
}

/**
 * Moves a booked appointment to `start` behind the RPC's back. The room-open appointment is
 * booked days away and then moved here: late in the evening no start 21 minutes away fits a
 * block ending at 24:00, so booking it directly would be refused as off the grid.
 */
async function moveTo(id: string, start: string): Promise<void> {
  await t.platform.ctx.db.query(
    `update public.agendamentos
        set horario_inicio = $2::timestamptz, horario_fim = $2::timestamptz + interval '30 minutes'
      where id = $1`,
    [id, start],
  );
}

describe('every action, from every reachable state, does on the server what the overlay showed', () => {
  it('[O6] the overlay predicts the stored row of every applied action; refused actions change nothing', async () => {
    const doctor = await createDoctor(t, {
      blocks: [0, 1, 2, 3, 4, 5, 6].map((dia_semana) => ({
        dia_semana,
        hora_inicio: '00:00',
        hora_fim: '24:00',
        intervalo_em_minutos: 5,
      })),
    });
    const patient = await createPatient(t);
    const actors: Actors = {
      medico: { person: doctor, client: await signedInClient(t, doctor) },
      paciente: { person: patient, client: await signedInClient(t, patient) },
    };
    const all = variants();
    const drift: string[] = [];
    const applied = new Set<string>();
    const refused = new Set<string>();
    const states = new Set<string>();

    const walks = [
      { bookAt: daysAway('10:00'), moveTo: null },
      { bookAt: daysAway('11:00'), moveTo: startIn(21) },
    ];
    for (const walk of walks) {
      const booking = await act(
        actors,
        'paciente',
        { kind: 'book', args: { medicoId: doctor.medicoId, horarioInicio: walk.bookAt } },
        null,
      );
      if (!booking.applied) throw new Error(`booking refused: ${booking.reason}`);
      applied.add('book');
      for (const d of differences('book', booking.predicted, booking.server))
        drift.push(`book: ${d}`);
      const id = booking.id;
      if (walk.moveTo) await moveTo(id, walk.moveTo);

      const booked = await snapshotOf(id);
      const queue = [{ snapshot: booked, from: stateKey(booking.server) }];
      for (const [status, payment] of SERVER_STATES) {
        await restore(id, booked);
        await t.platform.ctx.db.query(
          'update public.agendamentos set status = $2, pagamento_status = $3 where id = $1',
          [id, status, payment],
        );
        queue.push({ snapshot: await snapshotOf(id), from: stateKey(await stored(id)) });
      }
      const seen = new Set(queue.map((q) => q.from));
      while (queue.length > 0) {
        const { snapshot, from } = queue.shift()!;
        for (const { input, role } of all) {
          await restore(id, snapshot);
          const outcome = await act(actors, role, input, id);
          const name = label(input, role);
          if (!outcome.applied) {
            refused.add(name);
            if (!isDeepStrictEqual(outcome.before, outcome.server)) {
              drift.push(`${name} from ${from}: refused (${outcome.reason}) but changed the row`);
            }
            continue;
          }
          applied.add(name);
          for (const d of differences(input.kind, outcome.predicted, outcome.server)) {
            drift.push(`${name} from ${from}: ${d}`);
          }
          if (outcome.answered && !isDeepStrictEqual(outcome.answered, outcome.server)) {
            drift.push(`${name} from ${from}: the answer's row is not the stored row`);
          }
          const reached = stateKey(outcome.server);
          if (!seen.has(reached)) {
            seen.add(reached);
            queue.push({ snapshot: await snapshotOf(id), from: reached });
          }
        }
      }
      for (const s of seen) states.add(s);
    }

    expect(drift).toEqual([]);
    // The walk reached every action's applied side (and the refusals the SQL has).
    expect([...applied].sort()).toEqual(['book', ...all.map((x) => label(x.input, x.role))].sort());
    expect(refused.size).toBeGreaterThan(0);
    expect(states.size).toBeGreaterThan(10);
    // Hundreds of round trips to the real server: longer than a test's default budget.
  }, 600_000);
});
