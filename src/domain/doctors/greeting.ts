/** A title the name may already carry ('Dra. Ana Ribeiro', 'Dr Paulo'), so it is not doubled. */
const LEADING_TITLE = /^\s*dr[a]?\.?\s+/i;

/** docs/product-rules.md §2 doctor sidebar: 'Dr(a). {full name}', with any title already in the name dropped. */
export function doctorGreeting(fullName: string): string {
  const name = fullName.replace(LEADING_TITLE, '').trim();
  return name === '' ? 'Dr(a).' : `Dr(a). ${name}`;
}
