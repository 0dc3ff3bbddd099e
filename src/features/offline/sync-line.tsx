import { css } from 'styled-system/css';
import { InstallHint } from './install-hint.tsx';

/** The sync status line under the header (sync-status-bar.tsx). */
export const syncLine = css({
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

/**
 * The line's room, empty, while a screen that will open the replica waits for it (the booking
 * page asks after its first paint): when the status arrives nothing below moves.
 */
export function ReservedSyncLine() {
  return (
    <>
      <InstallHint />
      <div aria-hidden="true" className={syncLine}>
        {'\u00a0'}
      </div>
    </>
  );
}
