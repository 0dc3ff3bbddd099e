/**
 * One-off: rewrites citations of the documents the project was built from into citations of
 * docs/ (`spec §4` → `docs/product-rules.md §4`, …) across tracked files, in place. Run from
 * the repository root, review the diff, then run scripts/check-doc-refs.ts for what is left
 * to edit by hand. docs/ itself is not touched; rewritten files are re-formatted by Prettier.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rewriteRefs } from './lib/doc-refs.ts';
import { trackedTextFiles } from './lib/tracked-files.ts';

const root = process.cwd();
const productRules = readFileSync(join(root, 'docs/product-rules.md'), 'utf8');
const changed: string[] = [];
for (const path of trackedTextFiles(root)) {
  if (path.startsWith('docs/')) continue;
  const before = readFileSync(join(root, path), 'utf8');
  const after = rewriteRefs(before, productRules);
  if (after !== before) {
    writeFileSync(join(root, path), after);
    changed.push(path);
  }
}
console.log(`${changed.length} file(s) rewritten:\n${changed.join('\n')}`);
// Longer references can push code (test names) past the line width: let Prettier re-wrap.
if (changed.length > 0) {
  spawnSync('npx', ['prettier', '--write', '--log-level=warn', '--ignore-unknown', ...changed], {
    cwd: root,
    stdio: 'inherit',
  });
}
