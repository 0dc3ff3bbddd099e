import type { ReactElement, ReactNode } from 'react';
import { Tooltip as ArkTooltip } from '@ark-ui/react/tooltip';
import { Portal } from '@ark-ui/react/portal';
import { tooltip } from 'styled-system/recipes';

const styles = tooltip();

/** docs/product-rules.md §9: tooltips open after 100 ms. */
const OPEN_DELAY_MS = 100;

type TooltipProps = {
  content: ReactNode;
  /** A single focusable element. Wrap disabled buttons in a `<span tabIndex={0}>`: they get no pointer events. */
  children: ReactElement;
};

export function Tooltip({ content, children }: TooltipProps) {
  return (
    <ArkTooltip.Root openDelay={OPEN_DELAY_MS} closeDelay={0}>
      <ArkTooltip.Trigger asChild>{children}</ArkTooltip.Trigger>
      <Portal>
        <ArkTooltip.Positioner>
          <ArkTooltip.Content className={styles.content}>{content}</ArkTooltip.Content>
        </ArkTooltip.Positioner>
      </Portal>
    </ArkTooltip.Root>
  );
}
