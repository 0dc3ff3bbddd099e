import { useMemo } from 'react';
import { map } from 'rxjs';
import type { MedicoDoc } from '../../../sync/index.ts';
import { useObservable, useSyncSession } from '@/session/sync-provider.tsx';

/**
 * The signed-in doctor's own record, told apart from "not loaded yet": `missing` only once the
 * replica has pulled everything at least once this session and still has no record linked to
 * this account (docs/product-rules.md §2 'Perfil não encontrado'); before that the dashboard shows loading.
 */
export type OwnDoctor =
  | { state: 'loading' }
  | { state: 'failed' }
  | { state: 'missing' }
  | { state: 'found'; doctor: MedicoDoc };

export function useOwnDoctor(): OwnDoctor {
  const { engine, failed } = useSyncSession();
  const doctor$ = useMemo(() => engine?.ownDoctor$ ?? null, [engine]);
  const synced$ = useMemo(
    () => engine?.status$.pipe(map((status) => status.initialSync.done)) ?? null,
    [engine],
  );
  const doctor = useObservable(doctor$, undefined);
  const synced = useObservable(synced$, false);
  if (failed) return { state: 'failed' };
  if (doctor) return { state: 'found', doctor };
  if (doctor === null && synced) return { state: 'missing' };
  return { state: 'loading' };
}
