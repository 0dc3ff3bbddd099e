import { defineSemanticTokens } from '@pandacss/dev';

/**
 * Calm healthcare palette. Every text/background pair used by the recipes keeps a contrast
 * ratio of at least 4.5:1 (teal.700 on white is 5.5:1, slate.600 on white 7.6:1).
 */
export const semanticTokens = defineSemanticTokens({
  colors: {
    primary: {
      DEFAULT: { value: '{colors.teal.700}' },
      hover: { value: '{colors.teal.800}' },
      fg: { value: '{colors.white}' },
      subtle: { value: '{colors.teal.50}' },
      muted: { value: '{colors.teal.100}' },
      text: { value: '{colors.teal.800}' },
    },
    accent: {
      DEFAULT: { value: '{colors.sky.700}' },
      subtle: { value: '{colors.sky.50}' },
    },
    fg: {
      DEFAULT: { value: '{colors.slate.900}' },
      muted: { value: '{colors.slate.600}' },
      inverted: { value: '{colors.white}' },
    },
    bg: {
      canvas: { value: '{colors.slate.50}' },
      surface: { value: '{colors.white}' },
      subtle: { value: '{colors.slate.100}' },
      inverted: { value: '{colors.slate.900}' },
    },
    border: {
      DEFAULT: { value: '{colors.slate.200}' },
      strong: { value: '{colors.slate.400}' },
    },
    focus: { value: '{colors.sky.600}' },
    success: {
      fg: { value: '{colors.green.800}' },
      bg: { value: '{colors.green.50}' },
      border: { value: '{colors.green.200}' },
    },
    amber: {
      fg: { value: '{colors.amber.800}' },
      bg: { value: '{colors.amber.50}' },
      border: { value: '{colors.amber.300}' },
    },
    destructive: {
      DEFAULT: { value: '{colors.red.700}' },
      hover: { value: '{colors.red.800}' },
      fg: { value: '{colors.red.800}' },
      bg: { value: '{colors.red.50}' },
      border: { value: '{colors.red.200}' },
    },
    info: {
      fg: { value: '{colors.sky.800}' },
      bg: { value: '{colors.sky.50}' },
      border: { value: '{colors.sky.200}' },
    },
    neutral: {
      fg: { value: '{colors.slate.700}' },
      bg: { value: '{colors.slate.100}' },
      border: { value: '{colors.slate.300}' },
    },
  },
  shadows: {
    card: { value: '0 1px 2px rgba(15, 23, 42, 0.06), 0 4px 16px rgba(15, 23, 42, 0.06)' },
    overlay: { value: '0 20px 50px rgba(15, 23, 42, 0.25)' },
  },
});
