export type SearchFields = {
  patientName: string | null | undefined;
  protocol: string | null | undefined;
};

/** Lower-case and strip accents so 'joao' finds 'João' and 'CONCEIÇÃO' finds 'conceicao'. */
export function foldForSearch(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

/**
 * Both fields folded once, apart (a separator no query holds keeps a match inside one field),
 * so a list of thousands is folded when it changes, not on every keystroke.
 */
export function searchKeyOf(fields: SearchFields): string {
  return `${foldForSearch(fields.patientName ?? '')}\u0000${foldForSearch(fields.protocol ?? '')}`;
}

/** `needle` already folded (`foldForSearch`); blank matches all. */
export function keyMatches(key: string, needle: string): boolean {
  return needle === '' || key.includes(needle);
}
