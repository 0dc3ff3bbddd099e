import { defineConfig } from '@pandacss/dev';
import { semanticTokens } from './src/ui/theme/tokens.ts';
import { recipes, slotRecipes } from './src/ui/theme/recipes.ts';
import { globalCss } from './src/ui/theme/global.ts';

export default defineConfig({
  preflight: true,
  include: ['./src/**/*.{ts,tsx}'],
  exclude: ['./src/**/*.test.{ts,tsx}'],
  outdir: 'styled-system',
  jsxFramework: 'react',
  globalCss,
  // Wrappers pass variants through props, which static extraction cannot see.
  staticCss: { recipes: '*' },
  theme: {
    extend: {
      tokens: {
        // Stacking order: sticky header < dialogs < update banner < tooltips < skip link.
        zIndex: {
          sticky: { value: 1100 },
          overlay: { value: 1300 },
          modal: { value: 1400 },
          toast: { value: 1700 },
          tooltip: { value: 1800 },
          skipLink: { value: 1900 },
        },
      },
      semanticTokens,
      recipes,
      slotRecipes,
      keyframes: {
        fadeUp: {
          from: { opacity: '0', transform: 'translateY(16px)' },
          to: { opacity: '1', transform: 'translateY(0)' },
        },
        spin: { to: { transform: 'rotate(360deg)' } },
        pulse: { '50%': { opacity: '0.5' } },
      },
    },
  },
});
