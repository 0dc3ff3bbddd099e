import type { RoomEvent } from '../../src/domain/rules/consultation-room.ts';

/**
 * The server-authoritative actions, each sent as one RPC (data contract). Every mutation
 * targets one appointment; for a booking that is the id of its optimistic appointment.
 */
export type MutationInput =
  | { kind: 'book'; args: { medicoId: string; horarioInicio: string } }
  | { kind: 'generate_guide'; args: Record<string, never> }
  | { kind: 'confirm_payment'; args: Record<string, never> }
  | { kind: 'check_in'; args: Record<string, never> }
  | { kind: 'cancel'; args: Record<string, never> }
  | { kind: 'patient_cancel'; args: Record<string, never> }
  | { kind: 'save_meeting_link'; args: { link: string } }
  | { kind: 'room_event'; args: { evento: RoomEvent } };

export type MutationKind = MutationInput['kind'];

/** The server's "no" for a mutation, as shown to the person (O5). */
export type Rejection = {
  /**
   * Stable snake_case reason: the server's `hint`, else the app's error code
   * (src/domain/errors/map-server-error.ts) in the server's spelling.
   */
  reason: string;
  /** The server's message, Portuguese for business rules. */
  message: string;
};

export type Mutation = MutationInput & {
  /** Client-generated uuid, sent as `p_mutation_id`: a replay returns the first result (O2). */
  id: string;
  /** Enqueue order; mutations of one appointment are sent in this order (O3). */
  seq: number;
  appointmentId: string;
  /** Instant the person acted (ISO, `…Z`). */
  createdAt: string;
  state: 'pending' | 'rejected';
  attempts: number;
  /** Epoch milliseconds before which a retry is not sent (backoff, O4). */
  notBefore: number;
  /** Last transient failure and when it happened (ISO), for the status indicator. */
  lastError: string | null;
  lastErrorAt: string | null;
  rejection: Rejection | null;
};

export type OutboxState = {
  seq: number;
  mutations: Mutation[];
  /**
   * Optimistic appointment id → id the server gave the booking, for mutations queued behind
   * a booking and for screens still holding the optimistic id. Kept for the replica's life:
   * one short entry per booking.
   */
  idMap: Record<string, string>;
};

export const EMPTY_OUTBOX: OutboxState = { seq: 0, mutations: [], idMap: {} };
