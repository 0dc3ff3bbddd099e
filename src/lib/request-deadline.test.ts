import { describe, expect, it } from 'vitest';
import { RequestTimeoutError, withDeadline, type Timer } from './request-deadline.ts';

/** A fetch that never answers until its signal aborts, as a hung connection. */
const hanging: typeof fetch = (_input, init) =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error));
  });

describe('withDeadline', () => {
  it('aborts a request with no deadline of its own when the timer fires', async () => {
    let fire: () => void = () => undefined;
    const timer: Timer = (_ms, f) => ((fire = f), () => undefined);
    const request = withDeadline(hanging, { timer })('http://x/');
    fire();
    await expect(request).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it("leaves a request that carries its own signal to it (the replica's longer deadline)", async () => {
    const asked: number[] = [];
    const timer: Timer = (ms) => (asked.push(ms), () => undefined);
    const own = new AbortController();
    const request = withDeadline(hanging, { timer })('http://x/', { signal: own.signal });
    own.abort(new Error('own deadline'));
    await expect(request).rejects.toThrow('own deadline');
    expect(asked).toEqual([]);
  });

  it('cancels its timer once the answer arrives', async () => {
    let cancelled = false;
    const timer: Timer = () => () => (cancelled = true);
    await withDeadline(() => Promise.resolve(new Response('ok')), { timer })('http://x/');
    expect(cancelled).toBe(true);
  });
});
