import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkDocRefs, findOutsideRefs, sectionIds } from '../../scripts/lib/doc-refs.ts';

/**
 * The reference check (scripts/check-doc-refs.ts): every citation in
 * code and docs must point at a heading of a file in docs/.
 */
const docs = new Map(
  ['product-rules.md', 'architecture.md', 'platform-wire.md', 'replication.md'].map((name) => [
    name,
    sectionIds(readFileSync(`docs/${name}`, 'utf8')),
  ]),
);
const sectionsOf = (doc: string) => docs.get(doc);

describe('findOutsideRefs', () => {
  it.each([
    ['/** Booked statuses (spec §4). */', 'spec §'],
    ['/** Spec §2: any other path goes home. */', 'Spec §'],
    ['/** Spec "Guide page": the QR. */', 'Spec "'],
    ['/** The owner (spec: edit=1). */', '(spec: '],
    ['(`/work/shared/research/supabase-wire.md` §2)', '/work/shared'],
    ['// PostgREST mapSQLtoHTTP (supabase-wire.md §3.7)', 'supabase-wire.md'],
    ['// (rxdb-sync.md §2.5)', 'rxdb-sync.md'],
    ['/** Integer cents (DESIGN §3). */', 'DESIGN'],
    ["it('titles the page as the spec says')", 'the spec'],
  ])('flags %s', (line, expected) => {
    expect(findOutsideRefs(line).map((f) => f.text)).toContain(expected);
  });

  it.each([
    '/** Booked statuses (docs/product-rules.md §4). */',
    'function columnsOf(spec: TableSpec) {',
    "test.describe('booking.spec.ts', () => {});",
    'const DESIGN_TOKENS = {};',
  ])('leaves %s alone', (line) => {
    expect(findOutsideRefs(line)).toEqual([]);
  });
});

describe('checkDocRefs', () => {
  it('accepts sections that have headings, lists and ranges included', () => {
    const text = [
      'docs/product-rules.md §4, §5',
      'docs/platform-wire.md §3.2–3.4 and docs/replication.md §2.5',
      'docs/architecture.md',
    ].join('\n');
    expect(checkDocRefs(text, sectionsOf)).toEqual([]);
  });

  it('reports a section without a heading and a file not in docs/', () => {
    const findings = checkDocRefs('a\ndocs/product-rules.md §12\ndocs/nowhere.md §1', sectionsOf);
    expect(findings).toEqual([
      {
        line: 2,
        text: 'docs/product-rules.md §12',
        problem: 'points at a section with no heading',
      },
      { line: 3, text: 'docs/nowhere.md §1', problem: 'points at a file that is not in docs/' },
    ]);
  });
});
