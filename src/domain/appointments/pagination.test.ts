import { describe, expect, it } from 'vitest';
import { paginate } from './pagination.ts';

const items = Array.from({ length: 23 }, (_, i) => i + 1);

describe('paginate (10 per page)', () => {
  it.each([
    ['first page', items, 1, 1, [1, 10], 3, false, true],
    ['middle page', items, 2, 2, [11, 20], 3, true, true],
    ['last partial page', items, 3, 3, [21, 23], 3, true, false],
    ['past the end clamps to last', items, 9, 3, [21, 23], 3, true, false],
    ['zero clamps to first', items, 0, 1, [1, 10], 3, false, true],
    ['exactly ten items is one page', items.slice(0, 10), 1, 1, [1, 10], 1, false, false],
    ['empty list is one empty page', [], 1, 1, null, 1, false, false],
  ] as const)('%s', (_name, list, requested, page, range, pageCount, hasPrevious, hasNext) => {
    const result = paginate(list, requested);
    expect(result.page).toBe(page);
    expect(result.pageCount).toBe(pageCount);
    expect(result.hasPrevious).toBe(hasPrevious);
    expect(result.hasNext).toBe(hasNext);
    expect(result.items).toEqual(range ? items.slice(range[0] - 1, range[1]) : []);
  });
});
