import { Temporal } from 'temporal-polyfill';

/** What the indicator needs from the engine's status (sync/status.ts `SyncStatus`). */
export type SyncSummaryInput = {
  online: boolean;
  pendingMutations: number;
  lastSyncedAt: string | null;
  initialSync: { done: boolean; completed: number; total: number };
};

export type SyncSummary = {
  offline: boolean;
  /** 'N alterações pendentes', or null when nothing waits to be sent. */
  pending: string | null;
  /** 'Sincronizado há 2 min', or null before the first complete pull. */
  lastSynced: string | null;
  /** First-pull progress in [0, 1] while it runs, else null. */
  progress: number | null;
};

/**
 * Offline, whatever the state of the session's token: writes keep queueing and are sent on
 * reconnect (sync/SPEC.md A1, A2), so the person is told that, not that something failed.
 */
export const OFFLINE_LABEL =
  'Você está offline — suas alterações serão enviadas quando a conexão voltar';

export function pendingLabel(count: number): string | null {
  if (count <= 0) return null;
  return count === 1 ? '1 alteração pendente' : `${count} alterações pendentes`;
}

/** Coarse on purpose: the bar re-renders once a minute, so seconds would only lie. */
export function syncedAgoLabel(lastSyncedAt: string, now: Temporal.Instant): string | null {
  let then: Temporal.Instant;
  try {
    then = Temporal.Instant.from(lastSyncedAt);
  } catch {
    return null;
  }
  const minutes = Math.max(0, Math.floor(now.since(then).total('minutes')));
  if (minutes < 1) return 'Sincronizado agora';
  if (minutes < 60) return `Sincronizado há ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `Sincronizado há ${hours} h`;
  const days = Math.floor(hours / 24);
  return days === 1 ? 'Sincronizado há 1 dia' : `Sincronizado há ${days} dias`;
}

export function summarizeSync(status: SyncSummaryInput, now: Temporal.Instant): SyncSummary {
  const { initialSync } = status;
  const progress =
    !initialSync.done && status.online && initialSync.total > 0
      ? initialSync.completed / initialSync.total
      : null;
  return {
    offline: !status.online,
    pending: pendingLabel(status.pendingMutations),
    lastSynced: status.lastSyncedAt ? syncedAgoLabel(status.lastSyncedAt, now) : null,
    progress,
  };
}
