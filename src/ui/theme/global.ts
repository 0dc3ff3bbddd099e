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
  // A heading focused after navigation (src/app/layout/route-focus.tsx) is a reading position,
  // not a control: no ring around it.
  'h1[tabindex="-1"]:focus': { outline: 'none' },
  '@media (prefers-reduced-motion: reduce)': {
    '*, *::before, *::after': {
      animationDuration: '0.01ms !important',
      animationIterationCount: '1 !important',
      animationDelay: '0s !important',
      transitionDuration: '0.01ms !important',
    },
  },
});
