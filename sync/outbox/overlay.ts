import { Temporal } from 'temporal-polyfill';
import { BOOKED_STATUSES } from '../../src/domain/rules/booking.ts';
import { compareIsoText } from '../../src/domain/time/iso-order.ts';
import type { AgendaOcupadaDoc, AgendamentoDoc } from '../schemas.ts';
import { actionOf, slotEnd, type Acting } from './mutations.ts';
import { resolveAppointmentId } from './queue.ts';
import type { Mutation, MutationKind, OutboxState, Rejection } from './types.ts';

/** How an appointment on screen relates to the server (O6). */
export type SyncMark =
  | { state: 'synced' }
  | { state: 'pending'; kinds: MutationKind[] }
  | { state: 'rejected'; mutationId: string; rejection: Rejection };

export type OverlaidAppointment = AgendamentoDoc & { sync: SyncMark };

const BOOKED: readonly string[] = BOOKED_STATUSES;

/** What the overlay needs to know besides the queue: who acts here, and doctors' prices. */
export type OverlayContext = Pick<Acting, 'userId' | 'priceInCents'>;

/** The effect of a queued action on its appointment (mutations.ts), or null if it has none. */
function effectOf(
  doc: AgendamentoDoc | null,
  m: Mutation,
  ctx: OverlayContext,
): AgendamentoDoc | null {
  return actionOf(m.kind).effect(doc, m.args, {
    ...ctx,
    mutationId: m.id,
    appointmentId: m.appointmentId,
    createdAt: m.createdAt,
  });
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
  ctx: OverlayContext,
): OverlaidAppointment[] {
  const byId = new Map<string, OverlaidAppointment>();
  for (const doc of docs) byId.set(doc.id, { ...doc, sync: { state: 'synced' } });
  const idOf = serverIdOf(docs, outbox);
  const queue = [...outbox.mutations].sort((a, b) => a.seq - b.seq);
  for (const m of queue) {
    const id = idOf(m.appointmentId);
    const current = byId.get(id);
    const booking = m.kind === 'book' && !current ? effectOf(null, m, ctx) : null;
    if (booking) {
      const sync: SyncMark =
        m.state === 'rejected' && m.rejection
          ? { state: 'rejected', mutationId: m.id, rejection: m.rejection }
          : { state: 'pending', kinds: ['book'] };
      byId.set(id, { ...booking, sync });
      continue;
    }
    if (!current || m.state !== 'pending') continue;
    const { sync, ...doc } = current;
    const next = effectOf(doc, m, ctx) ?? doc;
    const kinds = sync.state === 'pending' ? sync.kinds : [];
    byId.set(id, {
      ...next,
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
      horario_fim: s.horario_fim ?? slotEnd(s.horario_inicio),
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
        horario_fim: slotEnd(start),
        appointment_id: m.appointmentId,
        pending: true,
      });
    }
  }
  return [...taken.values()].sort((a, b) => compareIsoText(a.horario_inicio, b.horario_inicio));
}
