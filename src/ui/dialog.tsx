import { lazy, Suspense, useState } from 'react';
import type { DialogProps } from './dialog-modal.tsx';

/**
 * Ark's dialog (focus trap, dismissable layer, scroll lock: about 12 KB gzip) loads when a
 * dialog first opens, not with every screen that can open one; the service worker precaches
 * the chunk, so it opens offline too.
 */
const DialogModal = lazy(() => import('./dialog-modal.tsx'));

/**
 * Modal dialog: Ark traps focus inside, restores it on close, closes on Escape and outside
 * click, and labels the content with its title and description (dialog-modal.tsx). Nothing is
 * rendered until it first opens; from then on it stays mounted so closing still animates.
 */
export function Dialog(props: DialogProps) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <DialogModal {...props} />
    </Suspense>
  );
}
