import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { OFFLINE_LABEL, pendingLabel, summarizeSync, syncedAgoLabel } from './sync-summary.ts';

const now = Temporal.Instant.from('2026-11-21T20:00:00Z');

describe('syncedAgoLabel', () => {
  it.each([
    ['2026-11-21T19:59:30Z', 'Sincronizado agora'],
    ['2026-11-21T19:58:00Z', 'Sincronizado há 2 min'],
    ['2026-11-21T19:00:30Z', 'Sincronizado há 59 min'],
    ['2026-11-21T17:00:00Z', 'Sincronizado há 3 h'],
    ['2026-11-20T19:00:00Z', 'Sincronizado há 1 dia'],
    ['2026-11-18T20:00:00Z', 'Sincronizado há 3 dias'],
    ['2026-11-21T20:05:00Z', 'Sincronizado agora'],
  ])('%s → %s', (at, label) => {
    expect(syncedAgoLabel(at, now)).toBe(label);
  });

  it.each([
    ['2026-11-21T19:59:30Z', 'Última sincronização há menos de 1 min'],
    ['2026-11-21T19:55:00Z', 'Última sincronização há 5 min'],
    ['2026-11-21T17:00:00Z', 'Última sincronização há 3 h'],
  ])('offline, %s → %s (never "agora")', (at, label) => {
    expect(syncedAgoLabel(at, now, false)).toBe(label);
  });

  it('keeps counting while offline: the same sync reads older as the clock moves', () => {
    const at = '2026-11-21T19:59:30Z';
    expect(syncedAgoLabel(at, now, false)).toBe('Última sincronização há menos de 1 min');
    expect(syncedAgoLabel(at, now.add({ minutes: 5 }), false)).toBe(
      'Última sincronização há 5 min',
    );
  });

  it('gives nothing for an unreadable instant', () => {
    expect(syncedAgoLabel('ontem', now)).toBeNull();
  });
});

describe('pendingLabel', () => {
  it.each([
    [0, null],
    [1, '1 alteração pendente'],
    [3, '3 alterações pendentes'],
  ])('%i → %s', (count, label) => {
    expect(pendingLabel(count)).toBe(label);
  });
});

describe('summarizeSync', () => {
  const base = {
    online: true,
    pendingMutations: 0,
    lastSyncedAt: '2026-11-21T19:58:00Z',
    initialSync: { done: true, completed: 7, total: 7 },
  };

  it('reports progress only while the first pull runs online', () => {
    expect(summarizeSync(base, now).progress).toBeNull();
    const running = { ...base, initialSync: { done: false, completed: 2, total: 8 } };
    expect(summarizeSync(running, now).progress).toBe(0.25);
    expect(summarizeSync({ ...running, online: false }, now).progress).toBeNull();
  });

  it('says offline with what waits and when it last synced', () => {
    expect(summarizeSync({ ...base, online: false, pendingMutations: 2 }, now)).toEqual({
      offline: true,
      pending: '2 alterações pendentes',
      lastSynced: 'Última sincronização há 2 min',
      progress: null,
    });
  });

  it('tells an offline person their changes wait for the connection', () => {
    expect(OFFLINE_LABEL).toBe(
      'Você está offline — suas alterações serão enviadas quando a conexão voltar',
    );
  });
});
