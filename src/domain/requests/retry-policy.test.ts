import { describe, expect, it } from 'vitest';
import { READ_RETRIES, readRetryDelayMs, REQUEST_TIMEOUT_MS } from './retry-policy.ts';

describe('request policy (docs/product-rules.md §9 "requests")', () => {
  it('gives up on a request after 6 s and retries a read 3 times', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(6000);
    expect(READ_RETRIES).toBe(3);
  });

  it('waits 1.5ⁿ s before retry n', () => {
    expect([1, 2, 3].map(readRetryDelayMs)).toEqual([1500, 2250, 3375]);
  });
});
