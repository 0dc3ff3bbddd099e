// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const root = import.meta.dirname;
const featuresDir = path.join(root, 'src/features');

/**
 * A feature never imports another feature: a route in src/app composes them (a screen of one
 * inside another is handed in as a prop), and whatever two features share moves below
 * src/features (docs/architecture.md).
 */
const featureZones = readdirSync(featuresDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => ({
    target: `./src/features/${entry.name}`,
    from: `${featuresDir}/*/**`,
    except: [`${featuresDir}/${entry.name}/**`],
    message:
      'A feature never imports another feature: let a route in src/app hand it in as a prop, or move the shared part below src/features.',
  }));

/**
 * Import direction is architecture (docs/architecture.md): app → features → (session, lib, ui,
 * domain, sync). The sync engine never reaches into the app, and the local Supabase stand-in
 * shares nothing with either — it only speaks the wire protocol, like the hosted service it
 * replaces.
 */
const importZones = [
  {
    target: './src/features',
    from: './src/app',
    message:
      'Features never import the app shell: move what they share into src/session, src/lib or src/ui.',
  },
  {
    target: './src/session',
    from: ['./src/app', './src/features'],
    message: 'src/session sits below the features and the app shell.',
  },
  {
    target: ['./src/lib', './src/ui'],
    from: ['./src/app', './src/features', './src/session'],
    message: 'src/lib and src/ui are the bottom layers: they import no screens and no session.',
  },
  ...featureZones,
  {
    target: './sync',
    from: './src',
    except: ['./domain/rules', './domain/schemas', './domain/errors', './domain/time/iso-order.ts'],
    message:
      'sync/ must not depend on the app (only on the shared rules, schemas, the one error mapper and the ISO text order in src/domain/rules, src/domain/schemas, src/domain/errors and src/domain/time/iso-order.ts): the app passes in what sync needs.',
  },
  {
    target: ['./sync/*.ts', './sync/outbox'],
    from: ['./sync/testing', './supabase/local'],
    message:
      'The sync engine ships in the app: only its test kit (sync/testing) may start the local platform, and the engine never imports the kit.',
  },
  {
    target: './supabase/local',
    from: ['./src', './sync'],
    message: 'supabase/local stands in for a remote service; it shares only SQL with the app.',
  },
  {
    target: './supabase/functions',
    from: ['./src', './sync', './supabase/local'],
    message: 'Edge functions must run on hosted Supabase (Deno) as they are.',
  },
  {
    target: './src/domain',
    from: ['./src/app', './src/features', './src/ui', './src/lib', './sync'],
    message: 'src/domain is pure logic: no React, no I/O, no app modules.',
  },
];

/**
 * The sync test kit (sync/testing) starts servers and fakes a browser's storage: tests use it, the
 * app never does, so that no build can pull it in (tsconfig.app.json leaves it out as well).
 */
const kitZone = {
  target: './src',
  from: './sync/testing',
  message: 'sync/testing is for tests: the app must not import it (docs/testing-sync.md).',
};

/**
 * The app sees the sync engine through its public entries, never its insides: sync/index.ts,
 * and the two light ones a screen may use before the engine's chunk loads (sync/light.ts, and
 * sync/presence.ts, which the app shell asks first).
 */
const syncEntryZone = {
  target: './src',
  from: './sync',
  except: ['./index.ts', './light.ts', './presence.ts', './testing'],
  message:
    'The app imports the sync engine through sync/index.ts, sync/light.ts or sync/presence.ts only.',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'dist-*',
      'styled-system',
      '.data',
      'test-results',
      'playwright-report',
      'dev-dist',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: {
      // Resolves the `@/` alias and `.ts` specifiers the way tsconfig does, so the zones below
      // see every import; packages are not followed.
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      'import-x/ignore': ['node_modules'],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: importZones }],
      'import-x/no-cycle': ['error', { maxDepth: 4, ignoreExternal: true }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'describe', property: 'only', message: 'Do not commit focused tests.' },
        { object: 'it', property: 'only', message: 'Do not commit focused tests.' },
        { object: 'test', property: 'only', message: 'Do not commit focused tests.' },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: [...importZones, kitZone, syncEntryZone] },
      ],
    },
  },
  {
    files: ['src/domain/**/*.ts'],
    ignores: ['src/domain/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Domain logic takes `now` as a parameter.',
        },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'Domain logic takes `now` as a parameter.',
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
