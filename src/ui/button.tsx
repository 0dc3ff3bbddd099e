import type { ComponentProps } from 'react';
import { cx } from 'styled-system/css';
import { button, type ButtonVariantProps } from 'styled-system/recipes';
import { Spinner } from './spinner.tsx';

export type ButtonProps = ComponentProps<'button'> &
  ButtonVariantProps & {
    /** Shows a spinner, disables the button and tells assistive tech it is working. */
    loading?: boolean;
  };

export function Button({
  variant,
  size,
  fullWidth,
  loading = false,
  className,
  disabled,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={cx(button({ variant, size, fullWidth }), className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading && <Spinner size="sm" label={null} />}
      {children}
    </button>
  );
}

/** Class names for links that look like buttons (react-router `<Link>`). */
export function buttonClass(props: ButtonVariantProps = {}, className?: string): string {
  return cx(button(props), className);
}
