/**
 * docs/testing-sync.md §1's example, run as written: the first `ts` block after the marker
 * comment is written beside this file and imported while this file is collected, so its test
 * registers here (the generated file is git-ignored and rewritten on every run).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MARKER =
  '<!-- The block below runs in CI as written: tests/sync/doc-example.integration.test.ts -->';

const doc = readFileSync(
  fileURLToPath(new URL('../../docs/testing-sync.md', import.meta.url)),
  'utf8',
);
const after = doc.indexOf(MARKER);
const block = /```ts\n([\s\S]*?)```/.exec(doc.slice(after));
if (after < 0 || !block?.[1]) {
  throw new Error('docs/testing-sync.md: no ```ts block after the example marker');
}
const generated = new URL('./doc-example.generated.ts', import.meta.url);
writeFileSync(generated, `// Generated from docs/testing-sync.md §1; edit the doc.\n${block[1]}`);
await import(generated.href);
