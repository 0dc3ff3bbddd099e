/**
 * The fuzzy string set PostgREST words its "Perhaps you meant …" hints with (the `fuzzyset`
 * package, after fuzzyset.js): candidates are ranked by the cosine of their 3-gram (then
 * 2-gram) counts, the best 50 re-ranked by Levenshtein similarity. So a hint here names what
 * PostgREST's would.
 */

const GRAM_SIZES = [3, 2];
/** `getOne`'s floor, which PostgREST's hints at parameter lists use. */
export const DEFAULT_MIN_SCORE = 0.33;
/** How alike a table or function name must be to be suggested (PostgREST's `getFuzzyHint`). */
export const NAME_HINT_SCORE = 0.75;

const normalized = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}, ]+/gu, '');

function gramCounts(text: string, size: number): Map<string, number> {
  let padded = `-${normalized(text)}-`;
  if (padded.length < size) padded += '-'.repeat(size - padded.length);
  const counts = new Map<string, number>();
  for (let i = 0; i + size <= padded.length; i++) {
    const gram = padded.slice(i, i + size);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

const norm = (counts: Map<string, number>) =>
  Math.sqrt([...counts.values()].reduce((sum, n) => sum + n * n, 0));

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - levenshtein(a, b) / longest;
}

/** The candidates like `text`, best first, each with its score (1 for an exact match). */
export function fuzzyMatches(
  candidates: readonly string[],
  text: string,
  minScore = DEFAULT_MIN_SCORE,
): { value: string; score: number }[] {
  const exact = candidates.find((c) => c.toLowerCase() === text.toLowerCase());
  if (exact !== undefined) return [{ value: exact, score: 1 }];
  const wanted = text.toLowerCase();
  for (const size of GRAM_SIZES) {
    const query = gramCounts(text, size);
    const queryNorm = norm(query);
    const byCosine = candidates
      .map((value) => {
        const counts = gramCounts(value, size);
        let dot = 0;
        for (const [gram, n] of query) dot += n * (counts.get(gram) ?? 0);
        return { value, score: dot === 0 ? 0 : dot / (queryNorm * norm(counts)) };
      })
      .filter((m) => m.score > 0)
      .sort((x, y) => y.score - x.score)
      .slice(0, 50);
    const results = byCosine
      .map(({ value }) => ({ value, score: similarity(value.toLowerCase(), wanted) }))
      .sort((x, y) => y.score - x.score)
      .filter((m) => m.score >= minScore);
    if (results.length) return results;
  }
  return [];
}

/** The one candidate most like `text`, when one is at least `minScore` alike. */
export function fuzzyBest(
  candidates: readonly string[],
  text: string,
  minScore = DEFAULT_MIN_SCORE,
): string | undefined {
  return fuzzyMatches(candidates, text, minScore)[0]?.value;
}
