import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { inlineScript } from './scripts/lib/inline-script.ts';
import { chunkFileName, pageChunks } from './scripts/lib/page-chunks.ts';
import { pagePreload } from './scripts/lib/page-preload.ts';
import { precompress } from './scripts/lib/precompress.ts';
import {
  BOOKING_PATH,
  DOCTOR_DASHBOARD_PATH,
  PATIENT_DASHBOARD_PATH,
} from './src/app/page-paths.ts';
import { SIGNED_IN_REPLICA_PREFIX } from './sync/replica-files.ts';

/** Kept equal to `<meta name="theme-color">` in index.html: installability checks compare them. */
const THEME_COLOR = '#0f766e';

/**
 * Same-origin API prefixes the SPA fallback must never answer: when the app is served by the
 * local Supabase stand-in, a navigation to /auth/v1/verify (an e-mail link) must reach the
 * server, not the cached index.html.
 */
const API_PREFIXES = [
  /^\/rest\//,
  /^\/auth\//,
  /^\/realtime\//,
  /^\/storage\//,
  /^\/functions\//,
  /^\/mailbox/,
];

/**
 * Brotli and gzip copies of every text file of the build, written after everything else
 * (the service worker included) so the app server sends compressed bytes without compressing
 * per request (scripts/lib/app-server.ts).
 */
function precompressBuild(): Plugin {
  let outDir = 'dist';
  return {
    name: 'saude-ja:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        await precompress(outDir);
      },
    },
  };
}

const BOOKING_ROUTE = 'src/app/routes/booking.tsx';
const PATIENT_DASHBOARD_ROUTE = 'src/app/routes/patient-dashboard.tsx';
const DOCTOR_DASHBOARD_ROUTE = 'src/app/routes/doctor-dashboard.tsx';

const booking = pageChunks({
  name: 'booking',
  entry: 'src/main.tsx',
  page: BOOKING_ROUTE,
  family: [PATIENT_DASHBOARD_ROUTE, 'src/app/routes/doctor-profile.tsx'],
  light: ['src/app/routes/legal-termos.tsx', 'src/app/routes/support.tsx'],
});

export default defineConfig({
  build: {
    rolldownOptions: {
      output: {
        // The modules the entry imports statically in one file with it rather than nine, and
        // the booking page in a few (scripts/lib/page-chunks.ts): over HTTP/1.1 a browser
        // fetches six files at a time from one host, so each extra file risks another round
        // trip before the first paint.
        codeSplitting: {
          groups: [
            // tslib (rxjs's and supabase-js's helpers) in a file of its own: left to automatic
            // splitting it shared one with temporal-polyfill, and every page that loads
            // supabase-js downloaded Temporal with it.
            { name: 'tslib', test: /[\\/]node_modules[\\/]tslib[\\/]/, priority: 4 },
            // rxjs in parts of its own, split by the pages that need them (small ones merged):
            // inside the booking page's shared parts it came along with modules the doctor's
            // dashboard needs, and that dashboard paints without rxjs (first-consultas.ts).
            {
              name: 'rxjs',
              test: /[\\/]node_modules[\\/]rxjs[\\/]/,
              priority: 4,
              entriesAware: true,
              entriesAwareMergeThreshold: 8 * 1024,
            },
            { name: 'app', tags: ['$initial'], priority: 3 },
            ...booking.groups,
          ],
        },
        chunkFileNames: chunkFileName,
        // The booking groups take modules without their dependencies, so two of their parts
        // can import each other; without this, whichever part a page loads first could run a
        // module before the one it depends on (a login page crashed on an Ark UI context read
        // before React's binding was set). Rolldown's documented pairing for such groups.
        strictExecutionOrder: true,
      },
    },
  },
  resolve: {
    alias: {
      '@/': fileURLToPath(new URL('./src/', import.meta.url)),
      'styled-system/': fileURLToPath(new URL('./styled-system/', import.meta.url)),
    },
  },
  plugins: [
    react(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['apple-touch-icon.png', 'favicon-32x32.png', 'favicon.ico'],
      manifest: {
        name: 'Saúde Já',
        short_name: 'Saúde Já',
        description:
          'Agende sua teleconsulta com médicos qualificados de forma rápida e segura, sem sair de casa.',
        lang: 'pt-BR',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: THEME_COLOR,
        background_color: '#f8fafc',
        icons: [
          { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png' },
          {
            src: '/maskable-512x512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      workbox: {
        // woff: the guide PDF's embedded fonts (pdf-lib's fontkit subsets WOFF, not WOFF2), so
        // the PDF is made offline too, with its lazy chunk.
        globPatterns: ['**/*.{js,css,html,svg,webp,woff,woff2}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: API_PREFIXES,
        // The replica (RxDB) is the offline cache for API data; caching REST/Auth/Realtime here
        // would feed stale pages to the pull handler. Only public Storage images are cached.
        runtimeCaching: [
          {
            urlPattern: ({ url }) => url.pathname.startsWith('/storage/v1/object/public/'),
            handler: 'CacheFirst',
            options: {
              cacheName: 'public-images',
              expiration: { maxEntries: 100, maxAgeSeconds: 30 * 24 * 60 * 60 },
              cacheableResponse: { statuses: [0, 200] },
            },
          },
        ],
      },
    }),
    booking.plugin,
    inlineScript('src/app/early-reads.ts'),
    pagePreload(
      {
        [BOOKING_PATH]: BOOKING_ROUTE,
        [DOCTOR_DASHBOARD_PATH]: DOCTOR_DASHBOARD_ROUTE,
        [PATIENT_DASHBOARD_PATH]: PATIENT_DASHBOARD_ROUTE,
      },
      // The dashboards read their lists from the replica when the device holds it, offline
      // too; the booking page paints from its own first reads either way.
      {
        modules: ['sync/index.ts', 'src/lib/supabase.ts'],
        paths: [DOCTOR_DASHBOARD_PATH, PATIENT_DASHBOARD_PATH],
        prefix: SIGNED_IN_REPLICA_PREFIX,
      },
    ),
    precompressBuild(),
  ],
});
