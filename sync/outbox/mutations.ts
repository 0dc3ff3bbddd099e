import { Temporal } from 'temporal-polyfill';
import * as v from 'valibot';
import { SCHEDULE_ZONE, SLOT_DURATION_MINUTES } from '../../src/domain/rules/booking.ts';
import {
  ROOM_EVENTS,
  ROOM_EVENT_ROLES,
  type RoomEvent,
} from '../../src/domain/rules/consultation-room.ts';
import { meetingLinkField } from '../../src/domain/schemas/meeting-link-field.ts';
import { bookingRequestSchema } from '../../src/domain/schemas/sync-inputs.ts';
import type { ServerRow } from '../row.ts';
import type { AgendamentoDoc } from '../schemas.ts';

/**
 * Every server-authoritative action, in one list: who may queue it, the arguments a screen
 * gives, the RPC and its parameters, the shape of the server's answer, the effect the screen
 * shows while it is queued (O6), and the toast texts. The sender (rpc.ts), the overlay
 * (overlay.ts), the engine's methods (sync/index.ts) and the dashboards' toasts all read it; tests/sync/actions-differential.integration.test.ts runs
 * every action against the real server from every reachable state and checks that `effect`
 * predicts the row the server stores. Adding an action means adding an entry here and its RPC
 * in supabase/migrations.
 */

export type ActorRole = 'paciente' | 'medico';

const NO_ARGS = v.strictObject({});

/** The arguments of each action, as a screen gives them to the engine (validated there). */
const ARGS = {
  book: bookingRequestSchema,
  generate_guide: NO_ARGS,
  confirm_payment: NO_ARGS,
  check_in: NO_ARGS,
  cancel: NO_ARGS,
  patient_cancel: NO_ARGS,
  save_meeting_link: v.object({ link: meetingLinkField }),
  room_event: v.object({ evento: v.picklist(ROOM_EVENTS) }),
} as const;

export type MutationArgs = { [K in keyof typeof ARGS]: v.InferOutput<(typeof ARGS)[K]> };
export type MutationKind = keyof MutationArgs;

/** One action as queued: its kind and its arguments (data contract). */
export type MutationInput = {
  [K in MutationKind]: { kind: K; args: MutationArgs[K] };
}[MutationKind];

/**
 * What the server answered, once read: applied, with the rows to store; or refused in the answer
 * itself (the flag RPCs' `success: false`; other refusals are errors, rpc.ts).
 */
export type Answer =
  | {
      applied: true;
      appointment: ServerRow | null;
      guide: ServerRow | null;
      message: string | null;
    }
  | { applied: false; message: string };

/** The person acting and the moment they acted, for the effect shown before the answer. */
export type Acting = {
  mutationId: string;
  appointmentId: string;
  /** Instant the person acted (ISO, `…Z`). */
  createdAt: string;
  userId: string | null;
  /** The booked doctor's price, as this device knows it. */
  priceInCents(medicoId: string): number | null;
};

type AppointmentField = keyof AgendamentoDoc;

export type Action<A> = {
  /** Who may queue it; the server checks again (the RPC and RLS). */
  roles: readonly ActorRole[];
  /** Narrower, when who may act depends on the arguments. */
  rolesFor?(args: A): readonly ActorRole[];
  args: v.GenericSchema<unknown, A>;
  rpc: string;
  /** The RPC's parameters; `p_mutation_id` makes a replay answer without acting twice (O2). */
  params(args: A, target: { appointmentId: string; mutationId: string }): Record<string, unknown>;
  answer: v.GenericSchema<unknown, Answer>;
  /**
   * The answer leaves the appointment out (the guide's RPC answers with the guide): the engine
   * reads the appointment after it, in a second request.
   */
  readsAppointment: boolean;
  /**
   * The appointment as the server will store it: what the screen shows while the action is
   * queued. `before` is null for a booking (it creates the appointment); an action whose
   * appointment is not in the replica has no effect to show.
   */
  effect(before: AgendamentoDoc | null, args: A, acting: Acting): AgendamentoDoc | null;
  /**
   * Columns the server fills from its own clock: the effect says that they are set (with the
   * moment the person acted), not when the server will say.
   */
  serverClock: readonly AppointmentField[];
  /** Columns only the server can know (ids it picks): the effect leaves them as they were. */
  serverAssigned: readonly AppointmentField[];
  /**
   * docs/product-rules.md §8: the toast titles when the server applies or refuses the action,
   * and whether the server's own message goes under them; null when the action's screen tells
   * the outcome its own way (booking, guide, consultation room).
   */
  texts: { success: string; failure: string; showServerMessage: boolean } | null;
};

/** A row an RPC returns, appointment or guide (all its columns; the replica keeps its own). */
const Row = v.pipe(
  v.looseObject({ id: v.string() }),
  v.transform((row): ServerRow => row),
);

/** PostgREST answers a composite result as an object, a `returns table` as an array of rows. */
function one<T>(schema: v.GenericSchema<unknown, T>) {
  return v.union([
    schema,
    v.pipe(
      v.tuple([schema]),
      v.transform(([row]) => row),
    ),
  ]);
}

/** `returns public.agendamentos`: the appointment as the action left it. */
const APPOINTMENT_ANSWER = v.pipe(
  one(Row),
  v.transform((appointment): Answer => ({
    applied: true,
    appointment,
    guide: null,
    message: null,
  })),
);

/** `returns public.guias`: the guide, not the appointment it changed. */
const GUIDE_ANSWER = v.pipe(
  one(Row),
  v.transform((guide): Answer => ({ applied: true, appointment: null, guide, message: null })),
);

/**
 * `returns table (success, message, agendamento)` (20261127170000): the flag, the server's own
 * words ('Agendamento cancelado com sucesso.') and the appointment as the action left it.
 */
const FLAG_ANSWER = v.pipe(
  one(v.object({ success: v.boolean(), message: v.string(), agendamento: v.nullable(Row) })),
  v.check(
    (answer) => !answer.success || answer.agendamento !== null,
    'an applied action answers with its appointment',
  ),
  v.transform(({ success, message, agendamento }): Answer =>
    success
      ? { applied: true, appointment: agendamento, guide: null, message }
      : { applied: false, message },
  ),
);

const target = ({ appointmentId, mutationId }: { appointmentId: string; mutationId: string }) => ({
  p_agendamento_id: appointmentId,
  p_mutation_id: mutationId,
});

const patients = ['paciente'] as const;
const doctors = ['medico'] as const;

/** When a consultation that starts at `start` ends. */
export function slotEnd(start: string): string {
  return Temporal.Instant.from(start).add({ minutes: SLOT_DURATION_MINUTES }).toString();
}

/** What paciente_agendar creates: confirmado, payment pendente, source 'site'. */
function optimisticBooking(args: MutationArgs['book'], acting: Acting): AgendamentoDoc {
  const start = Temporal.Instant.from(args.horarioInicio);
  const local = start.toZonedDateTimeISO(SCHEDULE_ZONE);
  return {
    id: acting.appointmentId,
    patient_id: acting.userId,
    medico_id: args.medicoId,
    servico_id: null,
    appointment_date: local.toPlainDate().toString(),
    appointment_time: local.toPlainTime().toString({ smallestUnit: 'second' }),
    horario_inicio: start.toString(),
    horario_fim: slotEnd(args.horarioInicio),
    price_in_cents: acting.priceInCents(args.medicoId),
    status: 'confirmado',
    pagamento_status: 'pendente',
    source: 'site',
    pagamento_confirmado_em: null,
    pagamento_confirmado_por: null,
    meeting_link: null,
    guia_id: null,
    protocolo: null,
    mutation_id: acting.mutationId,
    sala_paciente_entrou_em: null,
    chamada_iniciada_em: null,
    chamada_encerrada_em: null,
    chamada_duracao_segundos: null,
    chamada_so_audio: false,
    created_at: acting.createdAt,
    server_modified: null,
  };
}

/** Both cancellations: a paid payment stays paid (the refund is arranged outside). */
function cancelled(doc: AgendamentoDoc): AgendamentoDoc {
  return {
    ...doc,
    status: 'cancelado',
    pagamento_status: doc.pagamento_status === 'pago' ? 'pago' : 'cancelado',
  };
}

/** What registrar_evento_sala records, stamped with the moment the person acted. */
function roomEventEffect(doc: AgendamentoDoc, evento: RoomEvent, at: string): AgendamentoDoc {
  switch (evento) {
    case 'paciente_entrou':
      return { ...doc, sala_paciente_entrou_em: at };
    case 'chamada_iniciada':
      return {
        ...doc,
        chamada_iniciada_em: doc.chamada_iniciada_em ?? at,
        chamada_encerrada_em: null,
        chamada_duracao_segundos: null,
      };
    case 'chamada_encerrada': {
      if (!doc.chamada_iniciada_em || doc.chamada_encerrada_em) return doc;
      const started = Temporal.Instant.from(doc.chamada_iniciada_em);
      const seconds = Math.max(
        0,
        Math.floor(Temporal.Instant.from(at).since(started).total('seconds')),
      );
      return { ...doc, chamada_encerrada_em: at, chamada_duracao_segundos: seconds };
    }
    case 'so_audio':
      return { ...doc, chamada_so_audio: true };
  }
}

/** An effect on an appointment the replica already has. */
function onExisting<A>(
  change: (doc: AgendamentoDoc, args: A, acting: Acting) => AgendamentoDoc,
): Action<A>['effect'] {
  return (before, args, acting) => (before ? change(before, args, acting) : null);
}

export const MUTATIONS: { [K in MutationKind]: Action<MutationArgs[K]> } = {
  book: {
    roles: patients,
    args: ARGS.book,
    rpc: 'paciente_agendar',
    params: (args, { mutationId }) => ({
      p_medico_id: args.medicoId,
      p_horario_inicio: args.horarioInicio,
      p_mutation_id: mutationId,
    }),
    answer: APPOINTMENT_ANSWER,
    readsAppointment: false,
    // A booking whose row already arrived (Realtime before the answer) is the server's row.
    effect: (before, args, acting) => before ?? optimisticBooking(args, acting),
    serverClock: ['created_at'],
    serverAssigned: ['id', 'servico_id'],
    texts: null,
  },
  generate_guide: {
    roles: patients,
    args: ARGS.generate_guide,
    rpc: 'paciente_gerar_guia',
    params: (_args, t) => target(t),
    answer: GUIDE_ANSWER,
    readsAppointment: true,
    // The screen shows 'Gerando...' until the guide and its protocol arrive.
    effect: onExisting((doc) => doc),
    serverClock: [],
    serverAssigned: ['guia_id', 'protocolo'],
    texts: null,
  },
  confirm_payment: {
    roles: doctors,
    args: ARGS.confirm_payment,
    rpc: 'medico_confirmar_pagamento',
    params: (_args, t) => target(t),
    answer: APPOINTMENT_ANSWER,
    readsAppointment: false,
    // docs/product-rules.md §4: an attended appointment stays atendido.
    effect: onExisting((doc, _args, acting) => ({
      ...doc,
      pagamento_status: 'pago',
      status: doc.status === 'atendido' ? 'atendido' : 'confirmado',
      pagamento_confirmado_em: acting.createdAt,
      pagamento_confirmado_por: acting.userId,
    })),
    serverClock: ['pagamento_confirmado_em'],
    serverAssigned: [],
    texts: {
      success: 'Pagamento Confirmado!',
      failure: 'Falha ao Confirmar Pagamento',
      showServerMessage: false,
    },
  },
  check_in: {
    roles: doctors,
    args: ARGS.check_in,
    rpc: 'medico_confirmar_atendimento',
    params: (_args, t) => target(t),
    answer: FLAG_ANSWER,
    readsAppointment: false,
    effect: onExisting((doc) => ({ ...doc, status: 'atendido' })),
    serverClock: [],
    serverAssigned: [],
    texts: {
      success: 'Check-in Realizado!',
      failure: 'Falha no Check-in',
      showServerMessage: false,
    },
  },
  cancel: {
    roles: doctors,
    args: ARGS.cancel,
    rpc: 'medico_excluir_agendamento',
    params: (_args, t) => target(t),
    answer: FLAG_ANSWER,
    readsAppointment: false,
    effect: onExisting(cancelled),
    serverClock: [],
    serverAssigned: [],
    // docs/product-rules.md §8 "Cancel": 'Sucesso' with the server's message.
    texts: { success: 'Sucesso', failure: 'Falha ao Cancelar', showServerMessage: true },
  },
  patient_cancel: {
    roles: patients,
    args: ARGS.patient_cancel,
    rpc: 'paciente_cancelar_agendamento',
    params: (_args, t) => target(t),
    answer: FLAG_ANSWER,
    readsAppointment: false,
    effect: onExisting(cancelled),
    serverClock: [],
    serverAssigned: [],
    // docs/product-rules.md §8 "Appointments": the server's answer, under these titles.
    texts: { success: 'Sucesso', failure: 'Erro ao cancelar', showServerMessage: true },
  },
  save_meeting_link: {
    roles: doctors,
    args: ARGS.save_meeting_link,
    rpc: 'medico_salvar_link',
    params: (args, t) => ({ ...target(t), p_link: args.link }),
    answer: APPOINTMENT_ANSWER,
    readsAppointment: false,
    effect: onExisting((doc, args) => ({ ...doc, meeting_link: args.link })),
    serverClock: [],
    serverAssigned: [],
    texts: {
      success: 'Link da consulta salvo!',
      failure: 'Erro ao salvar link',
      showServerMessage: false,
    },
  },
  room_event: {
    roles: ['paciente', 'medico'],
    rolesFor: (args) => ROOM_EVENT_ROLES[args.evento],
    args: ARGS.room_event,
    rpc: 'registrar_evento_sala',
    params: (args, t) => ({ ...target(t), p_evento: args.evento }),
    answer: APPOINTMENT_ANSWER,
    readsAppointment: false,
    effect: onExisting((doc, args, acting) => roomEventEffect(doc, args.evento, acting.createdAt)),
    serverClock: [
      'sala_paciente_entrou_em',
      'chamada_iniciada_em',
      'chamada_encerrada_em',
      'chamada_duracao_segundos',
    ],
    serverAssigned: [],
    texts: null,
  },
};

/** Whether someone in `role` may queue this action with these arguments. */
export function mayQueue<K extends MutationKind>(
  kind: K,
  args: MutationArgs[K],
  role: ActorRole,
): boolean {
  const action: Action<MutationArgs[K]> = MUTATIONS[kind];
  return (action.rolesFor?.(args) ?? action.roles).includes(role);
}

/** A toast for the person (docs/product-rules.md §8). */
export type OutcomeToast = { tone: 'success' | 'error'; title: string; description?: string };

/**
 * What to tell the person when the server applied or refused a queued action: the action's
 * titles, with the server's message under a refusal (and under a success where the product
 * rules show it). Null for actions whose screens tell the outcome their own way.
 */
export function outcomeToast(
  kind: MutationKind,
  outcome: { applied: boolean; message: string | null },
): OutcomeToast | null {
  const texts = MUTATIONS[kind].texts;
  if (!texts) return null;
  const message = outcome.message || undefined;
  return outcome.applied
    ? {
        tone: 'success',
        title: texts.success,
        description: texts.showServerMessage ? message : undefined,
      }
    : { tone: 'error', title: texts.failure, description: message };
}

/** The entry of one queued action, typed by its kind. */
export function actionOf<K extends MutationKind>(kind: K): Action<MutationArgs[K]> {
  return MUTATIONS[kind];
}
