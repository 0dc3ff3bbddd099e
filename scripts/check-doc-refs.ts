/**
 * Fails (exit 1, one `file:line` per problem) when a tracked file names a document outside
 * the repository, or cites `docs/<file>.md §n` for a file or section heading that does not
 * exist. Run from the repository root: `npx tsx scripts/check-doc-refs.ts`.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkDocRefs, findOutsideRefs, sectionIds, type Finding } from './lib/doc-refs.ts';
import { trackedTextFiles } from './lib/tracked-files.ts';

function sectionsReader(root: string): (doc: string) => Set<string> | undefined {
  const cache = new Map<string, Set<string> | undefined>();
  return (doc) => {
    if (!cache.has(doc)) {
      const path = join(root, 'docs', doc);
      cache.set(doc, existsSync(path) ? sectionIds(readFileSync(path, 'utf8')) : undefined);
    }
    return cache.get(doc);
  };
}

function main(): void {
  const root = process.cwd();
  const sectionsOf = sectionsReader(root);
  let problems = 0;
  for (const path of trackedTextFiles(root)) {
    const text = readFileSync(join(root, path), 'utf8');
    const findings: Finding[] = [...findOutsideRefs(text), ...checkDocRefs(text, sectionsOf)];
    for (const f of findings.sort((a, b) => a.line - b.line)) {
      console.log(`${path}:${f.line}: ${f.text} — ${f.problem}`);
      problems++;
    }
  }
  if (problems > 0) {
    console.log(`\n${problems} reference(s) to fix; see docs/README.md.`);
    process.exit(1);
  }
  console.log('Every document reference points inside the repository.');
}

main();
