import { describe, expect, it } from 'vitest';
import { ReadRetriesExhausted, retryRead } from './retry-read.ts';

describe('retryRead (docs/product-rules.md §9 "requests")', () => {
  it('retries a failing read 3 times, 1.5ⁿ s apart, then gives up', async () => {
    const waits: number[] = [];
    let attempts = 0;
    const read = () => Promise.reject(new Error(`attempt ${++attempts}`));
    const result = retryRead(read, {
      retryable: () => true,
      wait: (ms) => (waits.push(ms), Promise.resolve()),
    });
    await expect(result).rejects.toBeInstanceOf(ReadRetriesExhausted);
    expect(attempts).toBe(4);
    expect(waits).toEqual([1500, 2250, 3375]);
  });

  it('returns the first answer that arrives', async () => {
    let attempts = 0;
    const read = () => (++attempts < 3 ? Promise.reject(new Error('x')) : Promise.resolve('ok'));
    await expect(
      retryRead(read, { retryable: () => true, wait: () => Promise.resolve() }),
    ).resolves.toBe('ok');
    expect(attempts).toBe(3);
  });

  it("throws the server's refusal at once", async () => {
    let attempts = 0;
    const refusal = new Error('refused');
    const read = () => (attempts++, Promise.reject(refusal));
    await expect(retryRead(read, { retryable: () => false })).rejects.toBe(refusal);
    expect(attempts).toBe(1);
  });
});
