/**
 * References from code and docs to documents. Every reference must point inside the
 * repository (docs/README.md): `docs/<file>.md §n`, where §n is a heading of that file. The
 * documents the project was built from live outside it; their names are recognised here so
 * the check can refuse them and the one-off rewrite can replace them.
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

/**
 * `### Title` headings of product-rules.md by section number, lower-cased, so a citation of
 * the original specification by subsection title ("Guide page") finds its `§n`.
 */
export function subsectionIndex(markdown: string): Map<string, string> {
  const index = new Map<string, string>();
  let current: string | null = null;
  for (const line of markdown.split('\n')) {
    const section = /^##\s+§(\d+)\b/.exec(line);
    if (section) current = section[1]!;
    const sub = /^###\s+(.+?)\s*$/.exec(line);
    if (sub && current && !index.has(sub[1]!.toLowerCase()))
      index.set(sub[1]!.toLowerCase(), current);
  }
  return index;
}

/** Titles the code uses that are not headings of their own. */
const TITLE_ALIASES: Record<string, string> = { 'fallback mode': '2' };

const RULES = 'docs/product-rules.md';
const VERB_AGREEMENT: Record<string, string> = {
  says: 'say',
  asks: 'ask',
  gives: 'give',
  does: 'do',
  is: 'are',
  has: 'have',
};

/** Citations of the original specification, rewritten to docs/product-rules.md. */
function rewriteSpecRefs(text: string, titles: Map<string, string>): string {
  return (
    text
      // spec §4 / Spec §4 → docs/product-rules.md §4 (a following ", §5" stays as it is).
      .replace(/\bspec\s+§/gi, `${RULES} §`)
      // spec "Guide page" → docs/product-rules.md §2 "Guide page", when the title is known.
      .replace(/\bspec\s+"([^"\n]+)"/gi, (whole, title: string) => {
        const section = titles.get(title.toLowerCase()) ?? TITLE_ALIASES[title.toLowerCase()];
        return section ? `${RULES} §${section} "${title}"` : whole;
      })
      .replace(
        /\b(t|T)he\s+spec\s+(says|asks|gives|does|is|has)\b/g,
        (_, t: string, verb: string) => `${t}he product rules (${RULES}) ${VERB_AGREEMENT[verb]}`,
      )
      // "the values are the spec's:" → "the values are those of the product rules (…):"
      .replace(
        /\b(t|T)he\s+spec['’]s\b(?!\s+(?:own\s+)?[a-z])/g,
        (_, t: string) => `${t === 'T' ? 'Those' : 'those'} of the product rules (${RULES})`,
      )
      // "the spec's flow", "the spec message" → "the product-rules flow": no apostrophe, since
      // many of these sit inside single-quoted test names.
      .replace(
        /\b(t|T)he\s+spec(?:['’]s)?\s+(?:own\s+)?([a-z][\w-]*)\b/g,
        (_, t: string, word: string) => `${t}he product-rules ${word}`,
      )
      .replace(/\b(t|T)he\s+spec\b(?![.\w-])/g, (_, t: string) => `${t}he product rules (${RULES})`)
  );
}

/** Citations of the design document and the research notes, rewritten into docs/. */
function rewriteNoteRefs(text: string): string {
  return (
    text
      // (`/work/shared/research/supabase-wire.md` §2) → (docs/platform-wire.md §2)
      .replace(/`?\/work\/shared\/research\/supabase-wire\.md`?/g, 'docs/platform-wire.md')
      .replace(/`?\/work\/shared\/research\/rxdb-sync\.md`?/g, 'docs/replication.md')
      .replace(/`?\/work\/shared\/research\/house-style\.md`?/g, 'docs/architecture.md')
      .replace(/`?\/work\/shared\/spec\/product-spec\.md`?/g, RULES)
      .replace(/`?\/work\/shared\/DESIGN\.md`?/g, 'docs/architecture.md')
      .replace(/(?<!docs\/)\bsupabase-wire\.md\b/g, 'docs/platform-wire.md')
      .replace(/(?<!docs\/)\brxdb-sync\.md\b/g, 'docs/replication.md')
      .replace(/\bDESIGN(?:\.md)?\s+§/g, 'docs/architecture.md §')
      .replace(/\bDESIGN\.md\b/g, 'docs/architecture.md')
  );
}

/**
 * The mechanical rewrite of one file's text. `productRules` is docs/product-rules.md, whose
 * subsection titles resolve citations by title.
 */
export function rewriteRefs(text: string, productRules: string): string {
  return rewriteSpecRefs(rewriteNoteRefs(text), subsectionIndex(productRules));
}
