import { useMemo } from 'react';
import type { MedicoDoc } from '../../../sync/index.ts';
import { useObservable, useObservableSelect, useSyncSession } from '@/session/sync-provider.tsx';
import { useSyncFetchError } from '@/session/sync-error-toast.ts';

/**
 * The signed-in doctor's own record, told apart from "not loaded yet": `missing` only once the
 * replica has pulled everything at least once this session and still has no record linked to
 * this account (docs/product-rules.md §2 'Perfil não encontrado'); before that the dashboard shows loading.
 */
export type OwnDoctor =
  | { state: 'loading' }
  | { state: 'failed' }
  /** The record is not in the replica and the server could not be asked for it (online). */
  | { state: 'fetch-failed'; message: string }
  | { state: 'missing' }
  | { state: 'found'; doctor: MedicoDoc };

export function useOwnDoctor(): OwnDoctor {
  const { engine, failed } = useSyncSession();
  const doctor$ = useMemo(() => engine?.ownDoctor$ ?? null, [engine]);
  const doctor = useObservable(doctor$, undefined);
  const synced = useObservableSelect(
    engine?.status$ ?? null,
    (status) => status.initialSync.done,
    false,
  );
  const fetchError = useSyncFetchError(engine, 'medicos');
  if (failed) return { state: 'failed' };
  if (doctor) return { state: 'found', doctor };
  if (fetchError !== null) return { state: 'fetch-failed', message: fetchError };
  if (doctor === null && synced) return { state: 'missing' };
  return { state: 'loading' };
}
