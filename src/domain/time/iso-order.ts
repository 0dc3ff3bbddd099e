/**
 * Orders two ISO-8601 texts of one fixed form (dates 'yyyy-MM-dd', months 'yyyy-MM', times
 * 'HH:mm:ss', the replica's `…Z` instants) chronologically, for `Array.prototype.sort`. Such
 * texts sort by their characters; `localeCompare` gives the same order but builds the browser's
 * collator on its first call, which on a slow phone is a long task of the first screen.
 */
export function compareIsoText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
