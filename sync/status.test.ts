import { BehaviorSubject, firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { enqueue, markRetry } from './outbox/queue.ts';
import { EMPTY_OUTBOX } from './outbox/types.ts';
import type { Clock } from './runtime.ts';
import { StatusTracker } from './status.ts';

function manualClock(): Clock & { set(iso: string): void } {
  let now = '2026-11-21T12:00:00Z';
  return { now: () => now, epochMs: () => Date.parse(now), set: (iso) => void (now = iso) };
}

describe('sync status', () => {
  it('[S1] reports first-sync progress, the last full sync, pending work and errors', async () => {
    const clock = manualClock();
    const tracker = new StatusTracker(['medicos', 'agenda_medico'], clock);
    const online$ = new BehaviorSubject(true);
    const outbox$ = new BehaviorSubject(EMPTY_OUTBOX);
    const status$ = tracker.status$(online$, outbox$);

    tracker.page('medicos', 2, true);
    tracker.error('agenda_medico', 'fetch failed');
    expect(await firstValueFrom(status$)).toMatchObject({
      lastSyncedAt: null,
      initialSync: { done: false, completed: 1, total: 2, rowsReceived: 2 },
      errors: [{ source: 'agenda_medico', message: 'fetch failed', at: '2026-11-21T12:00:00Z' }],
    });

    clock.set('2026-11-21T12:00:05Z');
    tracker.page('agenda_medico', 11, true);
    let queued = enqueue(
      EMPTY_OUTBOX,
      { kind: 'cancel', args: {} },
      { id: 'm1', appointmentId: 'a1', createdAt: clock.now() },
    );
    queued = markRetry(queued, 'm1', '0 fetch failed', clock.epochMs(), { baseMs: 10, maxMs: 10 });
    outbox$.next(queued);
    online$.next(false);
    expect(await firstValueFrom(status$)).toEqual({
      online: false,
      pendingMutations: 1,
      rejectedMutations: 0,
      lastSyncedAt: '2026-11-21T12:00:00Z',
      initialSync: { done: true, completed: 2, total: 2, rowsReceived: 13 },
      syncing: false,
      errors: [{ source: 'outbox', message: '0 fetch failed', at: '2026-11-21T12:00:05Z' }],
    });
  });

  it('[S1] a live stream again clears only its own failure, not a failed pull', async () => {
    const tracker = new StatusTracker(['medicos', 'agenda_medico'], manualClock());
    const status$ = tracker.status$(new BehaviorSubject(true), new BehaviorSubject(EMPTY_OUTBOX));
    tracker.error('medicos', 'realtime: socket closed: 1005');
    tracker.error('agenda_medico', 'fetch failed');

    tracker.clearError('medicos', 'realtime: ');
    tracker.clearError('agenda_medico', 'realtime: ');
    expect((await firstValueFrom(status$)).errors).toEqual([
      { source: 'agenda_medico', message: 'fetch failed', at: '2026-11-21T12:00:00Z' },
    ]);
  });
});
