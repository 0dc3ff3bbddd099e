import type { ComponentProps } from 'react';
import { cx } from 'styled-system/css';
import { card } from 'styled-system/recipes';

export function Card({ className, ...rest }: ComponentProps<'div'>) {
  return <div className={cx(card(), className)} {...rest} />;
}
