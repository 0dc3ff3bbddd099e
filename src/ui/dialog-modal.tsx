import type { ReactNode } from 'react';
import { Dialog as ArkDialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { dialog } from 'styled-system/recipes';

const styles = dialog();

export type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** The element to focus on open (default: the first focusable one). */
  initialFocusEl?: () => HTMLElement | null;
};

/**
 * Modal dialog: Ark traps focus inside, restores it on close, closes on Escape and outside
 * click, and labels the content with its title and description. Loaded by dialog.tsx when a
 * dialog first opens.
 */
export default function DialogModal({
  open,
  onOpenChange,
  title,
  description,
  children,
  initialFocusEl,
}: DialogProps) {
  return (
    <ArkDialog.Root
      open={open}
      onOpenChange={(details) => onOpenChange(details.open)}
      lazyMount
      unmountOnExit
      {...(initialFocusEl ? { initialFocusEl } : {})}
    >
      <Portal>
        <ArkDialog.Backdrop className={styles.backdrop} />
        <ArkDialog.Positioner className={styles.positioner}>
          <ArkDialog.Content className={styles.content}>
            <ArkDialog.Title className={styles.title}>{title}</ArkDialog.Title>
            {description && (
              <ArkDialog.Description className={styles.description}>
                {description}
              </ArkDialog.Description>
            )}
            {children}
            <ArkDialog.CloseTrigger className={styles.closeTrigger} aria-label="Fechar">
              <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none">
                <path
                  d="M6 6l12 12M18 6L6 18"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                />
              </svg>
            </ArkDialog.CloseTrigger>
          </ArkDialog.Content>
        </ArkDialog.Positioner>
      </Portal>
    </ArkDialog.Root>
  );
}
