import type { MutationInput } from './mutations.ts';

export type { MutationInput, MutationKind } from './mutations.ts';

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
