import { useEffect, useMemo, useState } from 'react';
import { Temporal } from 'temporal-polyfill';
import { css } from 'styled-system/css';
import type { SyncEngine } from '../../../sync/index.ts';
import { useObservable } from '@/session/sync-provider.tsx';
import { InstallHint } from './install-hint.tsx';
import { ReservedSyncLine, syncLine as bar } from './sync-line.tsx';
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

const offlineBar = css({ bg: 'amber.bg', color: 'amber.fg', fontWeight: 'semibold' });

// Over the top of the line, so the first sync's progress moves nothing below it.
const track = css({
  position: 'absolute',
  top: '0',
  left: '0',
  right: '0',
  h: '1',
  bg: 'border',
  overflow: 'hidden',
});
const fill = css({ h: 'full', bg: 'primary', transition: 'width 0.2s ease-out' });

/**
 * The slim bar under the header: offline state, changes waiting to be sent, when the replica
 * last caught up, and the first sync's progress (sync-indicator.tsx loads it with the engine).
 */
export default function SyncStatusBar({ engine }: { engine: SyncEngine }) {
  const status$ = useMemo(() => engine.status$, [engine]);
  const status = useObservable(status$, null);
  const now = useMinuteClock();
  if (!status) return <ReservedSyncLine />;
  const summary = summarizeSync(status, now);
  const parts = [summary.offline ? OFFLINE_LABEL : null, summary.pending, summary.lastSynced];
  const text = parts.filter((p): p is string => p !== null);

  return (
    <div data-testid="sync-indicator">
      <InstallHint />
      <div className={css({ position: 'relative' })}>
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
        {/* Always one line high, even with nothing to say during the first sync: the line that
          follows it ('Sincronizado agora') then takes no room it did not have. */}
        <div role="status" className={summary.offline ? `${bar} ${offlineBar}` : bar}>
          {text.length > 0 ? text.map((t) => <span key={t}>{t}</span>) : '\u00a0'}
        </div>
      </div>
    </div>
  );
}
