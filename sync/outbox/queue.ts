import { Temporal } from 'temporal-polyfill';
import type { Mutation, MutationInput, OutboxState, Rejection } from './types.ts';

export type Backoff = { baseMs: number; maxMs: number };

/** Adds a mutation at the end of the queue (O1). */
export function enqueue(
  state: OutboxState,
  input: MutationInput,
  meta: { id: string; appointmentId: string; createdAt: string },
): OutboxState {
  const seq = state.seq + 1;
  const mutation = {
    ...input,
    ...meta,
    // An appointment booked earlier in this session may already have its server id.
    appointmentId: resolveAppointmentId(state, meta.appointmentId),
    seq,
    state: 'pending',
    attempts: 0,
    notBefore: 0,
    lastError: null,
    lastErrorAt: null,
    rejection: null,
  } as Mutation;
  return { ...state, seq, mutations: [...state.mutations, mutation] };
}

/** The server id of an appointment booked optimistically, once the booking went through. */
export function resolveAppointmentId(state: OutboxState, appointmentId: string): string {
  return state.idMap[appointmentId] ?? appointmentId;
}

export type NextSend = { mutation: Mutation } | { waitMs: number } | null;

/**
 * Which mutation to send next (O3): the oldest pending one whose appointment has no older
 * pending mutation, once its backoff has passed. Mutations of other appointments go ahead
 * while one waits; rejected ones never hold anything up (O5). `waitMs` says when to look
 * again if everything is backing off; null means nothing is pending.
 */
export function nextToSend(state: OutboxState, now: number): NextSend {
  const busyLanes = new Set<string>();
  let soonest: number | null = null;
  for (const m of [...state.mutations].sort((a, b) => a.seq - b.seq)) {
    if (m.state !== 'pending') continue;
    if (busyLanes.has(m.appointmentId)) continue;
    busyLanes.add(m.appointmentId);
    if (m.notBefore <= now) return { mutation: m };
    soonest = soonest === null ? m.notBefore : Math.min(soonest, m.notBefore);
  }
  return soonest === null ? null : { waitMs: soonest - now };
}

/** A transient failure: keep it, try again after an exponential backoff (O4). */
export function markRetry(
  state: OutboxState,
  id: string,
  error: string,
  now: number,
  backoff: Backoff,
): OutboxState {
  return update(state, id, (m) => {
    const attempts = m.attempts + 1;
    const delay = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (attempts - 1));
    const lastErrorAt = Temporal.Instant.fromEpochMilliseconds(now).toString();
    return { ...m, attempts, notBefore: now + delay, lastError: error, lastErrorAt };
  });
}

/** Every pending mutation may be sent at once, e.g. when the connection comes back (O4). */
export function clearBackoff(state: OutboxState): OutboxState {
  return {
    ...state,
    mutations: state.mutations.map((m) => (m.state === 'pending' ? { ...m, notBefore: 0 } : m)),
  };
}

/** The server applied it: it leaves the queue; a booking records the server's id. */
export function markApplied(
  state: OutboxState,
  id: string,
  serverAppointmentId?: string,
): OutboxState {
  const mutation = state.mutations.find((m) => m.id === id);
  const rest = state.mutations.filter((m) => m.id !== id);
  if (!mutation || !serverAppointmentId || serverAppointmentId === mutation.appointmentId) {
    return { ...state, mutations: rest };
  }
  const local = mutation.appointmentId;
  return {
    ...state,
    idMap: { ...state.idMap, [local]: serverAppointmentId },
    // Mutations queued behind the booking now target the server's appointment, same lane.
    mutations: rest.map((m) =>
      m.appointmentId === local ? { ...m, appointmentId: serverAppointmentId } : m,
    ),
  };
}

/**
 * The server said no (O5). A rejected booking stays, marked, until the person dismisses it;
 * any other rejected mutation leaves the queue, so its optimistic effect reverts. Mutations
 * queued behind a rejected booking target an appointment that will never exist: they are
 * rejected with it. Returns the mutations that were rejected, for the rejection events.
 */
export function markRejected(
  state: OutboxState,
  id: string,
  rejection: Rejection,
): { state: OutboxState; rejected: Mutation[] } {
  const mutation = state.mutations.find((m) => m.id === id);
  if (!mutation) return { state, rejected: [] };
  const dependents =
    mutation.kind === 'book'
      ? state.mutations.filter(
          (m) => m.appointmentId === mutation.appointmentId && m.id !== id && m.state === 'pending',
        )
      : [];
  const dropped = new Set(dependents.map((m) => m.id));
  if (mutation.kind !== 'book') dropped.add(id);
  const marked = { ...mutation, state: 'rejected' as const, rejection };
  const mutations = state.mutations
    .filter((m) => !dropped.has(m.id))
    .map((m) => (m.id === id ? marked : m));
  const rejected = [
    marked,
    ...dependents.map((m) => ({ ...m, state: 'rejected' as const, rejection })),
  ];
  return { state: { ...state, mutations }, rejected };
}

/** Removes a rejected booking the person has seen. */
export function dismiss(state: OutboxState, id: string): OutboxState {
  return {
    ...state,
    mutations: state.mutations.filter((m) => !(m.id === id && m.state === 'rejected')),
  };
}

function update(state: OutboxState, id: string, fn: (m: Mutation) => Mutation): OutboxState {
  return { ...state, mutations: state.mutations.map((m) => (m.id === id ? fn(m) : m)) };
}
