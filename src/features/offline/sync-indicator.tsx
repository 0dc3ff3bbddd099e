import { lazy, Suspense } from 'react';
import { useOpenSyncEngine, useSyncExpected } from '@/session/sync-provider.tsx';
import { InstallHint } from './install-hint.tsx';
import { ReservedSyncLine } from './sync-line.tsx';

/**
 * The bar and its time arithmetic (Temporal) load only once a screen has opened the engine:
 * the landing page never does, and the booking page does after its first paint.
 */
const SyncStatusBar = lazy(() => import('./sync-status-bar.tsx'));

/**
 * The sync state under the header: nothing but the install hint while no screen uses the
 * replica, its line's room while one is opening it.
 */
export function SyncIndicator() {
  const engine = useOpenSyncEngine();
  const expected = useSyncExpected();
  if (!engine) return expected ? <ReservedSyncLine /> : <InstallHint />;
  return (
    <Suspense fallback={<ReservedSyncLine />}>
      <SyncStatusBar engine={engine} />
    </Suspense>
  );
}
