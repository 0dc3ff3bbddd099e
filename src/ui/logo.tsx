import { css, cx } from 'styled-system/css';

/** The brand mark: a white medical cross on a teal rounded square (as the app icons). */
export function LogoMark({ size = 32, className }: { size?: number; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      width={size}
      height={size}
      viewBox="0 0 64 64"
      className={cx(css({ flexShrink: 0 }), className)}
    >
      <rect width="64" height="64" rx="16" fill="#0f766e" />
      <path d="M26 14h12v12h12v12H38v12H26V38H14V26h12z" fill="#ffffff" />
    </svg>
  );
}
