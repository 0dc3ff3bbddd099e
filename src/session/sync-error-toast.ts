import { useEffect, useRef } from 'react';
import type { SyncEngine, SyncError, SyncStatus } from '../../sync/index.ts';
import { mapReplicationMessage } from '@/domain/errors/map-server-error.ts';
import { showToast } from '@/lib/toast.ts';
import { useObservableSelect } from './sync-provider.tsx';

/**
 * docs/product-rules.md §8 "Appointments": what the person is told when the replica cannot
 * bring a table's rows. Only a real failure: offline, the replica keeps what it has and the
 * sync line says so, which is no error.
 */
export const SYNC_ERROR_TITLES = {
  agendamentos: 'Erro ao buscar consultas',
  agenda_ocupada: 'Erro ao buscar horários',
  agenda_medico: 'Erro ao buscar agenda',
} as const;

export type FetchedSource = keyof typeof SYNC_ERROR_TITLES;

/** The live channel's own trouble (sync/realtime.ts), not a failed fetch: it has no toast. */
const REALTIME_PREFIX = 'realtime: ';

/** `source`'s current fetch failure in the person's words, or null (see useSyncFetchError). */
function fetchErrorOf(status: SyncStatus, source: SyncError['source']): string | null {
  const error = status.online
    ? status.errors.find((e) => e.source === source && !e.message.startsWith(REALTIME_PREFIX))
    : undefined;
  return error ? mapReplicationMessage(error.message).message : null;
}

/**
 * `source`'s current fetch failure in the person's words (as the one mapper words it), or
 * null: only a real failure counts — offline, the replica keeps what it has and the sync line
 * says so, which is no error; nor is trouble on the live channel. The screens that cannot show
 * anything without the table (the doctor's own profile and schedule) read it from here too.
 * The status is read as that text: it changes many times during a sync (each table's start and
 * end, each page pulled), and a change that leaves the text as it was renders nothing.
 */
export function useSyncFetchError(
  engine: SyncEngine | null,
  source: SyncError['source'],
): string | null {
  return useObservableSelect(
    engine?.status$ ?? null,
    (status) => fetchErrorOf(status, source),
    null,
  );
}

/**
 * Toasts `source`'s failure once when it appears while online, with the server's message; again
 * only after a successful fetch cleared it and a new failure came.
 */
export function useSyncErrorToast(engine: SyncEngine | null, source: FetchedSource): void {
  const message = useSyncFetchError(engine, source);
  const shown = useRef(false);
  useEffect(() => {
    if (message === null) {
      shown.current = false;
      return;
    }
    if (shown.current) return;
    shown.current = true;
    showToast({ tone: 'error', title: SYNC_ERROR_TITLES[source], description: message });
  }, [message, source]);
}
