import type { ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { alert, type AlertVariantProps } from 'styled-system/recipes';

type AlertProps = AlertVariantProps & {
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
  /** `alert` interrupts the screen reader (errors); `status` waits politely. */
  role?: 'alert' | 'status' | 'note';
};

export function Alert({ tone, title, children, className, role = 'note' }: AlertProps) {
  return (
    <div role={role} className={cx(alert({ tone }), className)}>
      {title && <p className={css({ fontWeight: 'bold', fontSize: 'md' })}>{title}</p>}
      {children && <div>{children}</div>}
    </div>
  );
}
