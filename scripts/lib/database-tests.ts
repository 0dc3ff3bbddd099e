import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The module that opens a database, PGlite's or PostgreSQL's. */
const DATABASE_ENTRY = 'supabase/local/db/index.ts';

/**
 * The test files whose outcome can depend on the database under them, for `npm run test:pg`
 * to run again on PostgreSQL: the others (pure functions, components, the PGlite engine's own
 * tests) already ran on the embedded default and would only repeat.
 *
 * A file counts when it, or any of the repository's modules it imports directly or not:
 * - opens a database (`supabase/local/db/index.ts`);
 * - reads DATABASE_URL (the platform's configuration, `freshDatabase`, the test kit);
 * - starts another process, which may read DATABASE_URL itself;
 * - imports a module whose name is not written out (a file written at run time), or a local
 *   one that cannot be found. A wrong "no" would skip a file on PostgreSQL; a wrong "yes" only
 *   runs one twice.
 */
export function databaseTests(root: string, testFiles: readonly string[]): string[] {
  const modules = new Map<string, { own: boolean; targets: string[] }>();
  /** A module's own verdict and the repository modules it imports, read once. */
  function moduleAt(file: string) {
    let known = modules.get(file);
    if (!known) {
      const text = readFileSync(join(root, file), 'utf8');
      const imports = specifiers(text);
      const targets = imports.map((s) => resolveLocal(root, file, s));
      known = {
        own:
          file === DATABASE_ENTRY ||
          text.includes('DATABASE_URL') ||
          /\bimport\(\s*[^'"`\s)]/.test(text) ||
          imports.some((s) => s === 'node:child_process' || s === 'child_process') ||
          targets.some((t) => t === null),
        targets: targets.filter((t): t is string => typeof t === 'string'),
      };
      modules.set(file, known);
    }
    return known;
  }

  // Only a yes is remembered across test files: a no found while a cycle was still open may
  // be a yes through the part of the cycle not walked yet.
  const yes = new Set<string>();
  function counts(file: string, seen: Set<string>): boolean {
    if (yes.has(file)) return true;
    if (seen.has(file)) return false;
    seen.add(file);
    const { own, targets } = moduleAt(file);
    if (own || targets.some((t) => counts(t, seen))) {
      yes.add(file);
      return true;
    }
    return false;
  }

  return testFiles.filter((file) => counts(file, new Set()));
}

/** Every module specifier of a TypeScript file: imports, re-exports, literal dynamic imports. */
function specifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/**
 * The repository file a specifier names, relative to `root`: undefined for a package, a
 * built-in or an asset; null for a module of the repository that cannot be found.
 */
function resolveLocal(root: string, from: string, specifier: string): string | null | undefined {
  let base: string;
  if (specifier.startsWith('.')) base = resolve(root, dirname(from), specifier);
  else if (specifier.startsWith('@/')) base = resolve(root, 'src', specifier.slice(2));
  else return undefined;
  if (/\.(json|css|svg|png|md|sql|txt)(\?.*)?$/.test(base)) return undefined;
  const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find(
    (c) => /\.(ts|tsx|mts|mjs|js)$/.test(c) && existsSync(c),
  );
  return found ? relative(root, found) : null;
}
