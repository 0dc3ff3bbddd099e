import { Temporal } from 'temporal-polyfill';
import {
  BOOKED_STATUSES,
  SCHEDULE_ZONE,
  SLOT_DURATION_MINUTES,
} from '../../src/domain/rules/booking.ts';
import type { RoomEvent } from '../../src/domain/rules/consultation-room.ts';
import type { AgendaOcupadaDoc, AgendamentoDoc } from '../schemas.ts';
import { resolveAppointmentId } from './queue.ts';
import type { Mutation, MutationKind, OutboxState, Rejection } from './types.ts';

/** How an appointment on screen relates to the server (O6). */
export type SyncMark =
  | { state: 'synced' }
  | { state: 'pending'; kinds: MutationKind[] }
  | { state: 'rejected'; mutationId: string; rejection: Rejection };

export type OverlaidAppointment = AgendamentoDoc & { sync: SyncMark };

const BOOKED: readonly string[] = BOOKED_STATUSES;

export type BookingContext = {
  patientId: string | null;
  priceInCents(medicoId: string): number | null;
};

/** What a booking looks like before the server confirms it: what the server will create. */
function optimisticBooking(
  m: Extract<Mutation, { kind: 'book' }>,
  ctx: BookingContext,
): AgendamentoDoc {
  const start = Temporal.Instant.from(m.args.horarioInicio);
  const local = start.toZonedDateTimeISO(SCHEDULE_ZONE);
  return {
    id: m.appointmentId,
    patient_id: ctx.patientId,
    medico_id: m.args.medicoId,
    servico_id: null,
    appointment_date: local.toPlainDate().toString(),
    appointment_time: local.toPlainTime().toString({ smallestUnit: 'second' }),
    horario_inicio: start.toString(),
    horario_fim: plusBooking(m.args.horarioInicio),
    price_in_cents: ctx.priceInCents(m.args.medicoId),
    status: 'confirmado',
    pagamento_status: 'pendente',
    source: 'site',
    pagamento_confirmado_em: null,
    pagamento_confirmado_por: null,
    meeting_link: null,
    guia_id: null,
    protocolo: null,
    mutation_id: m.id,
    sala_paciente_entrou_em: null,
    chamada_iniciada_em: null,
    chamada_encerrada_em: null,
    chamada_duracao_segundos: null,
    chamada_so_audio: false,
    created_at: m.createdAt,
    server_modified: null,
  };
}

/** What registrar_evento_sala will record, stamped with the moment the person acted. */
function applyRoomEvent(doc: AgendamentoDoc, evento: RoomEvent, at: string): AgendamentoDoc {
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

/** The visible effect of a pending mutation on its appointment. */
function applyPending(doc: AgendamentoDoc, m: Mutation): AgendamentoDoc {
  switch (m.kind) {
    case 'confirm_payment':
      return { ...doc, pagamento_status: 'pago', status: 'confirmado' };
    case 'check_in':
      return { ...doc, status: 'atendido' };
    case 'cancel':
    case 'patient_cancel':
      // What the server does: a paid payment stays paid (the refund is arranged outside).
      return {
        ...doc,
        status: 'cancelado',
        pagamento_status: doc.pagamento_status === 'pago' ? 'pago' : 'cancelado',
      };
    case 'save_meeting_link':
      return { ...doc, meeting_link: m.args.link };
    case 'room_event':
      return applyRoomEvent(doc, m.args.evento, m.createdAt);
    case 'book':
    case 'generate_guide':
      return doc;
  }
}

/**
 * The id an appointment booked on this device has in the replica: the server's once the
 * outbox has the booking's answer, or, before that, the id of the replicated row that carries
 * the booking's mutation id — Realtime can bring the row before the RPC's answer arrives (a
 * slow answer, a retry after a lost one), and the person must not see their booking twice.
 */
function serverIdOf(
  docs: readonly AgendamentoDoc[],
  outbox: OutboxState,
): (appointmentId: string) => string {
  const byMutation = new Map<string, string>();
  for (const doc of docs) if (doc.mutation_id) byMutation.set(doc.mutation_id, doc.id);
  const arrived = new Map<string, string>();
  for (const m of outbox.mutations) {
    const id = m.kind === 'book' ? byMutation.get(m.id) : undefined;
    if (id) arrived.set(m.appointmentId, id);
  }
  return (appointmentId) => {
    const resolved = resolveAppointmentId(outbox, appointmentId);
    return arrived.get(resolved) ?? resolved;
  };
}

/**
 * Server appointments with the queue laid over them (O6): pending bookings appear, pending
 * actions show their expected effect in order, a rejected booking stays visible marked with
 * the server's message until dismissed. Rejected actions have left the queue, so their
 * appointment simply shows the server's state again.
 */
export function overlayAppointments(
  docs: readonly AgendamentoDoc[],
  outbox: OutboxState,
  ctx: BookingContext,
): OverlaidAppointment[] {
  const byId = new Map<string, OverlaidAppointment>();
  for (const doc of docs) byId.set(doc.id, { ...doc, sync: { state: 'synced' } });
  const idOf = serverIdOf(docs, outbox);
  const queue = [...outbox.mutations].sort((a, b) => a.seq - b.seq);
  for (const m of queue) {
    const id = idOf(m.appointmentId);
    if (m.kind === 'book' && !byId.has(id)) {
      const sync: SyncMark =
        m.state === 'rejected' && m.rejection
          ? { state: 'rejected', mutationId: m.id, rejection: m.rejection }
          : { state: 'pending', kinds: ['book'] };
      byId.set(id, { ...optimisticBooking(m, ctx), sync });
      continue;
    }
    const current = byId.get(id);
    if (!current || m.state !== 'pending') continue;
    const kinds = current.sync.state === 'pending' ? current.sync.kinds : [];
    byId.set(id, {
      ...applyPending(current, m),
      sync: { state: 'pending', kinds: kinds.includes(m.kind) ? kinds : [...kinds, m.kind] },
    });
  }
  return [...byId.values()];
}

/** A booked range [horario_inicio, horario_fim); a grid slot is taken when it overlaps one. */
export type OccupiedSlot = {
  horario_inicio: string;
  horario_fim: string;
  appointment_id: string;
  pending: boolean;
};

function plusBooking(start: string): string {
  return Temporal.Instant.from(start).add({ minutes: SLOT_DURATION_MINUTES }).toString();
}

/** A doctor's taken slots: the server's, plus this person's bookings still in the queue. */
export function overlayOccupied(
  slots: readonly AgendaOcupadaDoc[],
  outbox: OutboxState,
  medicoId: string,
): OccupiedSlot[] {
  const taken = new Map<string, OccupiedSlot>();
  for (const s of slots) {
    if (s.medico_id !== medicoId || !BOOKED.includes(s.status ?? 'confirmado')) continue;
    taken.set(s.horario_inicio, {
      horario_inicio: s.horario_inicio,
      horario_fim: s.horario_fim ?? plusBooking(s.horario_inicio),
      appointment_id: s.id,
      pending: false,
    });
  }
  for (const m of outbox.mutations) {
    if (m.kind !== 'book' || m.state !== 'pending' || m.args.medicoId !== medicoId) continue;
    const start = Temporal.Instant.from(m.args.horarioInicio).toString();
    if (!taken.has(start)) {
      taken.set(start, {
        horario_inicio: start,
        horario_fim: plusBooking(start),
        appointment_id: m.appointmentId,
        pending: true,
      });
    }
  }
  return [...taken.values()].sort((a, b) => a.horario_inicio.localeCompare(b.horario_inicio));
}
