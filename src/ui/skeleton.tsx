import { cx } from 'styled-system/css';
import { skeleton } from 'styled-system/recipes';

/** Placeholder block; size it with `className`. Hidden from assistive tech. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cx(skeleton(), className)} />;
}
