import { defineGlobalStyles } from '@pandacss/dev';

export const globalCss = defineGlobalStyles({
  'html, body': {
    bg: 'bg.canvas',
    color: 'fg',
    fontFamily:
      'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    lineHeight: '1.6',
    WebkitFontSmoothing: 'antialiased',
  },
  body: { minWidth: '320px' },
  ':focus-visible': {
    outline: '3px solid',
    outlineColor: 'focus',
    outlineOffset: '2px',
  },
  '@media (prefers-reduced-motion: reduce)': {
    '*, *::before, *::after': {
      animationDuration: '0.01ms !important',
      animationIterationCount: '1 !important',
      animationDelay: '0s !important',
      transitionDuration: '0.01ms !important',
    },
  },
});
