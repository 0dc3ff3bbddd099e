/** Doctor appointment tabs show 10 per page, each tab with its own counter (docs/product-rules.md §9). */
export const APPOINTMENTS_PER_PAGE = 10;

export type Page<T> = {
  items: T[];
  /** 1-based, clamped into [1, pageCount]. */
  page: number;
  pageCount: number;
  hasPrevious: boolean;
  hasNext: boolean;
};

/** How many pages `total` items fill: one when there are none (its text says the list is empty). */
export function pageCountOf(total: number, perPage: number = APPOINTMENTS_PER_PAGE): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/**
 * One page of a list. The requested page is clamped, so a search or a realtime removal that
 * shrinks the list never leaves the doctor on an empty page past the end.
 */
export function paginate<T>(
  items: readonly T[],
  page: number,
  perPage: number = APPOINTMENTS_PER_PAGE,
): Page<T> {
  const pageCount = pageCountOf(items.length, perPage);
  const current = Math.min(Math.max(1, Number.isInteger(page) ? page : 1), pageCount);
  const start = (current - 1) * perPage;
  return {
    items: items.slice(start, start + perPage),
    page: current,
    pageCount,
    hasPrevious: current > 1,
    hasNext: current < pageCount,
  };
}
