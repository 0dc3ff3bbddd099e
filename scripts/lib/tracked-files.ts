import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The reference checker names the outside documents on purpose. */
const EXCLUDED = new Set([
  'scripts/check-doc-refs.ts',
  'scripts/lib/doc-refs.ts',
  'tests/architecture/doc-refs.test.ts',
]);

/** Text files git tracks under `root` (binary files — those with a NUL byte — left out). */
export function trackedTextFiles(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  return out
    .split('\0')
    .filter((path) => path && !EXCLUDED.has(path) && existsSync(join(root, path)))
    .filter((path) => !readFileSync(join(root, path)).includes(0));
}
