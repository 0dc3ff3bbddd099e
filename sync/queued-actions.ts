/**
 * The actions a screen queues in the outbox (O1): each checked against its entry of
 * outbox/mutations.ts, then added to the queue; the server decides the rest (O5).
 */
import * as v from 'valibot';
import type { RoomEvent } from '../src/domain/rules/consultation-room.ts';
import { uuidField } from '../src/domain/schemas/fields.ts';
import type { EngineCore } from './engine.ts';
import { MUTATIONS, mayQueue, type MutationInput, type MutationKind } from './outbox/mutations.ts';
import { guarded, type WriteResult } from './write-result.ts';

type Queued = Promise<WriteResult<{ mutationId: string }>>;

/** The engine's members that queue an action; part of `SyncEngine`. */
export type QueuedActions = {
  /** Books a slot (patients). Returns the optimistic appointment id, usable at once. */
  book(input: {
    medicoId: string;
    horarioInicio: string;
  }): Promise<WriteResult<{ mutationId: string; appointmentId: string }>>;
  /** Generates the guide of a booked appointment (patients). */
  generateGuide(appointmentId: string): Queued;
  /** Marks an appointment paid (doctors). */
  confirmPayment(appointmentId: string): Queued;
  /** Confirms attendance (doctors). */
  checkIn(appointmentId: string): Queued;
  /** Cancels an appointment (doctors). */
  cancel(appointmentId: string): Queued;
  /** Cancels one's own appointment or releases a checkout hold (patients; the server checks the notice). */
  patientCancel(appointmentId: string): Queued;
  /** Saves the consultation's https link (doctors). */
  saveMeetingLink(appointmentId: string, link: string): Queued;
  /**
   * Records what happened in the consultation room on the appointment (registrar_evento_sala):
   * 'paciente_entrou' (patients), 'chamada_iniciada' (doctors), 'chamada_encerrada' and
   * 'so_audio' (either). Queued like the other actions, so it reaches the server exactly once.
   */
  recordRoomEvent(appointmentId: string, evento: RoomEvent): Queued;
  /** How many queued changes have not reached the server yet (`status$`'s pendingMutations, now). */
  pendingCount(): number;
  /** Forgets a rejected booking after the person has seen it. */
  dismissRejected(mutationId: string): Promise<void>;
};

export function queuedActions({ outbox, user, newId }: EngineCore): QueuedActions {
  /**
   * Queues one action of mutations.ts: its arguments must pass its schema and the signed-in
   * person must hold one of its roles; nothing else is checked here (the server decides, O5).
   */
  async function enqueue<K extends MutationKind>(
    kind: K,
    appointmentId: string,
    input: unknown,
    id = newId(),
  ): Queued {
    const action = MUTATIONS[kind];
    const args = v.safeParse(action.args, input);
    if (!args.success || !v.is(uuidField, appointmentId)) {
      return { ok: false, error: 'invalid-input' };
    }
    if (!user || !mayQueue(kind, args.output, user.role)) {
      return { ok: false, error: 'not-allowed' };
    }
    return guarded(async () => {
      // `kind` and its arguments' schema come from one entry, which TypeScript cannot follow.
      const queued = { kind, args: args.output } as MutationInput;
      const m = await outbox.add(queued, { id, appointmentId });
      return { ok: true, value: { mutationId: m.id } };
    });
  }

  /** An action that takes nothing but its appointment. */
  const onAppointment =
    (kind: 'generate_guide' | 'confirm_payment' | 'check_in' | 'cancel' | 'patient_cancel') =>
    (appointmentId: string) =>
      enqueue(kind, appointmentId, {});

  return {
    async book(input) {
      const id = newId();
      const result = await enqueue('book', id, input, id);
      return result.ok
        ? { ok: true, value: { mutationId: result.value.mutationId, appointmentId: id } }
        : result;
    },
    generateGuide: onAppointment('generate_guide'),
    confirmPayment: onAppointment('confirm_payment'),
    checkIn: onAppointment('check_in'),
    cancel: onAppointment('cancel'),
    patientCancel: onAppointment('patient_cancel'),
    saveMeetingLink: (appointmentId, link) => enqueue('save_meeting_link', appointmentId, { link }),
    recordRoomEvent: (appointmentId, evento) => enqueue('room_event', appointmentId, { evento }),
    pendingCount: () => outbox.current().mutations.filter((m) => m.state === 'pending').length,
    dismissRejected: (mutationId) => outbox.dismiss(mutationId),
  };
}
