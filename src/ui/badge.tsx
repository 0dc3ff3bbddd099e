import type { ComponentProps } from 'react';
import { cx } from 'styled-system/css';
import { badge, type BadgeVariantProps } from 'styled-system/recipes';

export type BadgeTone = NonNullable<BadgeVariantProps['tone']>;

export function Badge({ tone, className, ...rest }: ComponentProps<'span'> & { tone?: BadgeTone }) {
  return <span className={cx(badge({ tone }), className)} {...rest} />;
}
