/**
 * References from code and docs to documents. Every reference must point inside the
 * repository (docs/README.md): `docs/<file>.md §n`, where §n is a heading of that file. The
 * documents the project was built from live outside it; their names are recognised here so
 * the check can refuse them.
 */

/** A name of a document outside the repository, and how to recognise it in text. */
type OutsidePattern = { label: string; pattern: RegExp };

const OUTSIDE: readonly OutsidePattern[] = [
  { label: 'a path outside the repository', pattern: /\/work\/shared\b/g },
  { label: 'the original product specification', pattern: /\bproduct-spec\.md\b/g },
  { label: 'the original design document', pattern: /\bDESIGN\b/g },
  { label: 'outside research notes', pattern: /\b(?:supabase-wire|rxdb-sync|house-style)\.md\b/g },
  { label: 'the original specification (use docs/product-rules.md §n)', pattern: /\bspec\s+§/gi },
  { label: 'the original specification by title', pattern: /\bspec\s+"/gi },
  // `(spec: edit=1)` in prose, not `(spec: TableSpec)` in a signature.
  { label: 'the original specification', pattern: /\(spec:\s(?![A-Z]|readonly\b)/g },
  { label: 'the original specification', pattern: /\bthe\s+spec\b(?![.\w-])|\bspec['’]s\b/gi },
];

export type Finding = { line: number; text: string; problem: string };

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Places where `text` names a document outside the repository. */
export function findOutsideRefs(text: string): Finding[] {
  const findings: Finding[] = [];
  for (const { label, pattern } of OUTSIDE) {
    for (const match of text.matchAll(pattern)) {
      findings.push({ line: lineAt(text, match.index), text: match[0], problem: `names ${label}` });
    }
  }
  return findings.sort((a, b) => a.line - b.line);
}

/** Section ids (`2`, `2.2`, …) of a markdown file: headings that start with `§n`. */
export function sectionIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  for (const match of markdown.matchAll(/^#{1,6}\s+§(\d+(?:\.\d+)*)\b/gm)) ids.add(match[1]!);
  return ids;
}

export type DocRef = { line: number; doc: string; section: string | null };

const SECTION = String.raw`\d+(?:\.\d+)*`;
/** `docs/x.md`, optionally `§a`, then more sections: `, §b`, ` and §b`, `–b`, `-§b`. */
const DOC_REF = new RegExp(
  String.raw`\bdocs/([\w.-]+\.md)(?:\s+§(${SECTION})((?:\s*(?:,|and|[–-])\s*§?${SECTION})*))?`,
  'g',
);

/** Every `docs/<file>.md [§n]` reference in `text`, one entry per section named. */
export function findDocRefs(text: string): DocRef[] {
  const refs: DocRef[] = [];
  for (const match of text.matchAll(DOC_REF)) {
    const line = lineAt(text, match.index);
    const doc = match[1]!;
    if (!match[2]) {
      refs.push({ line, doc, section: null });
      continue;
    }
    refs.push({ line, doc, section: match[2] });
    for (const more of (match[3] ?? '').matchAll(new RegExp(SECTION, 'g'))) {
      refs.push({ line, doc, section: more[0] });
    }
  }
  return refs;
}

/** Problems with `docs/` references: a missing file, or a section it has no heading for. */
export function checkDocRefs(
  text: string,
  sectionsOf: (doc: string) => Set<string> | undefined,
): Finding[] {
  const findings: Finding[] = [];
  for (const ref of findDocRefs(text)) {
    const sections = sectionsOf(ref.doc);
    const name = `docs/${ref.doc}${ref.section ? ` §${ref.section}` : ''}`;
    if (!sections) {
      findings.push({
        line: ref.line,
        text: name,
        problem: 'points at a file that is not in docs/',
      });
    } else if (ref.section && !sections.has(ref.section)) {
      findings.push({ line: ref.line, text: name, problem: 'points at a section with no heading' });
    }
  }
  return findings;
}
