import { describe, expect, it } from 'vitest';
import {
  clearBackoff,
  dismiss,
  enqueue,
  markApplied,
  markRejected,
  markRetry,
  nextToSend,
} from './queue.ts';
import { EMPTY_OUTBOX, type MutationInput, type OutboxState } from './types.ts';

const AT = '2026-11-21T12:00:00Z';
const backoff = { baseMs: 100, maxMs: 1_000 };
const book: MutationInput = {
  kind: 'book',
  args: { medicoId: 'd', horarioInicio: '2026-11-23T12:00:00Z' },
};
const guide: MutationInput = { kind: 'generate_guide', args: {} };
const pay: MutationInput = { kind: 'confirm_payment', args: {} };

function queue(...items: [MutationInput, string, string][]): OutboxState {
  return items.reduce(
    (s, [input, id, appointmentId]) => enqueue(s, input, { id, appointmentId, createdAt: AT }),
    EMPTY_OUTBOX,
  );
}

const nextId = (s: OutboxState, now = 0) => {
  const next = nextToSend(s, now);
  return next && 'mutation' in next ? next.mutation.id : next;
};

describe('outbox queue', () => {
  it('[O3] sends in enqueue order, one appointment at a time', () => {
    const s = queue([book, 'm1', 'a'], [guide, 'm2', 'a'], [pay, 'm3', 'b']);
    expect(nextId(s)).toBe('m1');
    expect(nextId(markApplied(s, 'm1'))).toBe('m2');
  });

  it('[O4] a mutation backing off holds its appointment but not the others', () => {
    let s = queue([pay, 'm1', 'a'], [guide, 'm2', 'a'], [pay, 'm3', 'b']);
    s = markRetry(s, 'm1', 'offline', 1_000, backoff);
    expect(nextId(s, 1_000)).toBe('m3');
    s = markApplied(s, 'm3');
    expect(nextToSend(s, 1_050)).toEqual({ waitMs: 50 });
    expect(nextId(s, 1_100)).toBe('m1');
  });

  it('[O4] backoff doubles up to the maximum and is cleared when the connection returns', () => {
    let s = queue([pay, 'm1', 'a']);
    const delays = [1, 2, 3, 4, 5].map(() => {
      s = markRetry(s, 'm1', 'offline', 0, backoff);
      return s.mutations[0]!.notBefore;
    });
    expect(delays).toEqual([100, 200, 400, 800, 1_000]);
    expect(s.mutations[0]).toMatchObject({ attempts: 5, lastError: 'offline' });
    expect(nextId(clearBackoff(s), 0)).toBe('m1');
  });

  it('[O5] a rejected booking stays marked, takes its queued follow-ups with it, and blocks nothing else', () => {
    const s = queue([book, 'm1', 'a'], [guide, 'm2', 'a'], [book, 'm3', 'b']);
    const rejection = { reason: 'slot_taken', message: 'Este horário já foi reservado.' };
    const { state, rejected } = markRejected(s, 'm1', rejection);
    expect(rejected.map((m) => [m.id, m.state])).toEqual([
      ['m1', 'rejected'],
      ['m2', 'rejected'],
    ]);
    expect(state.mutations.map((m) => [m.id, m.state])).toEqual([
      ['m1', 'rejected'],
      ['m3', 'pending'],
    ]);
    expect(nextId(state)).toBe('m3');
    expect(dismiss(state, 'm1').mutations.map((m) => m.id)).toEqual(['m3']);
  });

  it('[O5] any other rejected action leaves the queue, so its optimistic effect reverts', () => {
    const s = queue([pay, 'm1', 'a'], [pay, 'm2', 'b']);
    const { state } = markRejected(s, 'm1', { reason: 'already_paid', message: 'x' });
    expect(state.mutations.map((m) => m.id)).toEqual(['m2']);
  });

  it('[O2] a booking the server gave another id moves its follow-ups, and later ones, to that id', () => {
    let s = queue([book, 'm1', 'local'], [guide, 'm2', 'local']);
    s = markApplied(s, 'm1', 'server');
    expect(s.mutations[0]).toMatchObject({ id: 'm2', appointmentId: 'server' });
    s = enqueue(s, pay, { id: 'm3', appointmentId: 'local', createdAt: AT });
    expect(s.mutations[1]).toMatchObject({ id: 'm3', appointmentId: 'server' });
  });
});
