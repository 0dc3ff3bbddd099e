import type { ReactNode } from 'react';
import { Tabs as ArkTabs } from '@ark-ui/react/tabs';
import { tabs } from 'styled-system/recipes';

const styles = tabs();

export type TabItem = { value: string; label: ReactNode; content: ReactNode };

type TabsProps = {
  items: TabItem[];
  value: string;
  onValueChange: (value: string) => void;
  /** Names the tab list for screen readers. */
  label: string;
};

/** Controlled tabs with arrow-key navigation (Ark). The value usually mirrors the URL. */
export function Tabs({ items, value, onValueChange, label }: TabsProps) {
  return (
    <ArkTabs.Root
      value={value}
      onValueChange={(details) => onValueChange(details.value)}
      className={styles.root}
      lazyMount
    >
      <ArkTabs.List className={styles.list} aria-label={label}>
        {items.map((item) => (
          <ArkTabs.Trigger key={item.value} value={item.value} className={styles.trigger}>
            {item.label}
          </ArkTabs.Trigger>
        ))}
      </ArkTabs.List>
      {items.map((item) => (
        <ArkTabs.Content key={item.value} value={item.value} className={styles.content}>
          {item.content}
        </ArkTabs.Content>
      ))}
    </ArkTabs.Root>
  );
}
