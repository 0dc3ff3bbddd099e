import { useEffect, useMemo, useState } from 'react';
import { Temporal } from 'temporal-polyfill';
import { css } from 'styled-system/css';
import { useObservable, useOpenSyncEngine } from '@/session/sync-provider.tsx';
import { InstallHint } from './install-hint.tsx';
import { OFFLINE_LABEL, summarizeSync } from './sync-summary.ts';

const MINUTE_MS = 60_000;

/** Re-renders once a minute so 'Sincronizado há N min' keeps counting while nothing syncs. */
function useMinuteClock(): Temporal.Instant {
  const [now, setNow] = useState(() => Temporal.Now.instant());
  useEffect(() => {
    const id = setInterval(() => setNow(Temporal.Now.instant()), MINUTE_MS);
    return () => clearInterval(id);
  }, []);
  return now;
}

const bar = css({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'center',
  columnGap: '3',
  rowGap: '1',
  px: '4',
  py: '1',
  fontSize: 'xs',
  borderBottomWidth: '1px',
  borderColor: 'border',
  bg: 'bg.surface',
  color: 'fg.muted',
});

const offlineBar = css({ bg: 'amber.bg', color: 'amber.fg', fontWeight: 'semibold' });

const track = css({ h: '1', bg: 'border', overflow: 'hidden' });
const fill = css({ h: 'full', bg: 'primary', transition: 'width 0.2s ease-out' });

/**
 * The slim bar under the header: offline state, changes waiting to be sent, when the replica
 * last caught up, and the first sync's progress. Nothing shows before the engine opens.
 */
export function SyncIndicator() {
  const engine = useOpenSyncEngine();
  const status$ = useMemo(() => engine?.status$ ?? null, [engine]);
  const status = useObservable(status$, null);
  const now = useMinuteClock();
  if (!status) return <InstallHint />;
  const summary = summarizeSync(status, now);
  const parts = [summary.offline ? OFFLINE_LABEL : null, summary.pending, summary.lastSynced];
  const text = parts.filter((p): p is string => p !== null);

  return (
    <div data-testid="sync-indicator">
      <InstallHint />
      {summary.progress !== null && (
        <div
          className={track}
          role="progressbar"
          aria-label="Sincronizando dados"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(summary.progress * 100)}
        >
          <div className={fill} style={{ width: `${Math.round(summary.progress * 100)}%` }} />
        </div>
      )}
      {text.length > 0 && (
        <div role="status" className={summary.offline ? `${bar} ${offlineBar}` : bar}>
          {text.map((t) => (
            <span key={t}>{t}</span>
          ))}
        </div>
      )}
    </div>
  );
}
