import type { ComponentProps } from 'react';
import { css, cx } from 'styled-system/css';

const container = css({ w: 'full', maxW: '6xl', mx: 'auto', px: { base: '4', md: '6' } });

/** Centers page content with responsive side padding (comfortable from 360 px up). */
export function Container({ className, ...rest }: ComponentProps<'div'>) {
  return <div className={cx(container, className)} {...rest} />;
}
