import type { Temporal } from 'temporal-polyfill';
import { timeAgo } from '@/domain/time/relative.ts';
import { parseInstant } from '@/domain/time/zone.ts';

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
  /** 'Sincronizado há 2 min' ('Última sincronização há 2 min' offline), or null before the first complete pull. */
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

/**
 * When the replica last caught up, in words. Online, under a minute reads 'Sincronizado agora';
 * offline it never does — 'agora' next to 'Você está offline' read as if the data were live —
 * and says 'Última sincronização há 5 min' instead. Coarse on purpose: the bar re-renders once
 * a minute, so seconds would only lie.
 */
export function syncedAgoLabel(
  lastSyncedAt: string,
  now: Temporal.Instant,
  online = true,
): string | null {
  const then = parseInstant(lastSyncedAt);
  if (!then) return null;
  const ago = timeAgo(then, now);
  if (!online) return `Última sincronização ${ago ?? 'há menos de 1 min'}`;
  return ago ? `Sincronizado ${ago}` : 'Sincronizado agora';
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
    lastSynced: status.lastSyncedAt
      ? syncedAgoLabel(status.lastSyncedAt, now, status.online)
      : null,
    progress,
  };
}
