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

/** Case- and accent-insensitive substring match on patient name or protocol; blank matches all. */
export function matchesSearch(fields: SearchFields, query: string): boolean {
  const needle = foldForSearch(query);
  if (needle === '') return true;
  return [fields.patientName, fields.protocol].some(
    (value) => value != null && foldForSearch(value).includes(needle),
  );
}

export function filterBySearch<T>(
  items: readonly T[],
  query: string,
  fieldsOf: (item: T) => SearchFields,
): T[] {
  return items.filter((item) => matchesSearch(fieldsOf(item), query));
}
