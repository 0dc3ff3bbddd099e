import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Where the docs name a module as "the one" place for something (the one mapper, the one door,
 * the one client…), the app must really go through it: a module only its tests import is a
 * place a newcomer would edit in vain. Cheap: file names and import specifiers, no compiler.
 */

const DOCS = [
  'README.md',
  'sync/SPEC.md',
  ...readdirSync('docs', { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f)),
  ...readdirSync('src', { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('README.md'))
    .map((f) => join('src', f)),
];

/** The `src/…` and `sync/…` modules a paragraph that speaks of "the one" names. */
function namedAsTheOne(markdown: string): string[] {
  return markdown
    .split(/\n\s*\n/)
    .filter((paragraph) => /\bthe one\b/i.test(paragraph))
    .flatMap((paragraph) => [...paragraph.matchAll(/`((?:src|sync)\/[^`\s]+\.tsx?)`/g)])
    .map((m) => m[1] ?? '');
}

function sourceFiles(root: string): string[] {
  return readdirSync(root, { recursive: true })
    .map(String)
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => join(root, f));
}

/** App code: what ships, not its tests or the test kits. */
function isProduction(file: string): boolean {
  return !/\.test\.tsx?$/.test(file) && !/(^|\/)testing\//.test(file);
}

/** Every module production code imports, as a path from the repository root. */
function importedByProduction(
  files: readonly string[],
  read = (f: string) => readFileSync(f, 'utf8'),
): Set<string> {
  const imported = new Set<string>();
  for (const file of files.filter(isProduction)) {
    for (const m of read(file).matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      const spec = m[1] ?? '';
      if (spec.startsWith('@/')) imported.add(normalize(join('src', spec.slice(2))));
      else if (spec.startsWith('.')) imported.add(normalize(join(dirname(file), spec)));
    }
  }
  return imported;
}

describe('modules the docs name as "the one"', () => {
  it('finds the paths in a paragraph that says "the one", and only there', () => {
    const text = [
      'Errors: the one mapper (`src/domain/errors/map-server-error.ts`) words them.',
      '',
      'Some other module: `src/lib/toast.ts`.',
    ].join('\n');
    expect(namedAsTheOne(text)).toEqual(['src/domain/errors/map-server-error.ts']);
  });

  it('tells production imports from test imports', () => {
    const sources: Record<string, string> = {
      'src/features/a/page.tsx': "import { x } from '@/domain/errors/map-server-error.ts';",
      'src/domain/money/money.test.ts': "import { y } from './unused.ts';",
    };
    const imported = importedByProduction(Object.keys(sources), (f) => sources[f] ?? '');
    expect(imported.has('src/domain/errors/map-server-error.ts')).toBe(true);
    expect(imported.has('src/domain/money/unused.ts')).toBe(false);
  });

  const named = [
    ...new Set(DOCS.filter(existsSync).flatMap((f) => namedAsTheOne(readFileSync(f, 'utf8')))),
  ];
  const imported = importedByProduction([...sourceFiles('src'), ...sourceFiles('sync')]);

  it('names at least the one error mapper', () => {
    expect(named).toContain('src/domain/errors/map-server-error.ts');
  });

  it.each(named)('%s exists and production code imports it', (path) => {
    expect(existsSync(path)).toBe(true);
    expect(imported.has(path)).toBe(true);
  });
});
