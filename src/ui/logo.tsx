import { css, cx } from 'styled-system/css';

/** The brand mark: a white medical cross with a pulse line on a teal rounded square. */
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
      <path
        d="M14 33h9l3-6 5 12 4-8 2 2h13"
        fill="none"
        stroke="#0f766e"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
