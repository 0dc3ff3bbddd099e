import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: {
    alias: {
      '@/': fileURLToPath(new URL('./src/', import.meta.url)),
      'styled-system/': fileURLToPath(new URL('./styled-system/', import.meta.url)),
    },
  },
  test: {
    include: [
      'src/**/*.test.{ts,tsx}',
      'sync/**/*.test.ts',
      'supabase/**/*.test.ts',
      'tests/**/*.test.{ts,tsx}',
    ],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Platform suites start a server per file; keep the output readable.
    silent: 'passed-only',
  },
});
