import { Temporal } from 'temporal-polyfill';

/** Time as the sync engine sees it; tests pass their own (house style rule 7). */
export type Clock = {
  /** The current instant as ISO-8601 `…Z`. */
  now(): string;
  epochMs(): number;
};

/** One-shot timers; returns a function that cancels the timer. */
export type Timers = { after(ms: number, fn: () => void): () => void };

export const systemClock: Clock = {
  now: () => Temporal.Now.instant().toString(),
  epochMs: () => Temporal.Now.instant().epochMilliseconds,
};

export const systemTimers: Timers = {
  after(ms, fn) {
    const handle = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(handle);
  },
};

export function randomId(): string {
  return crypto.randomUUID();
}

/**
 * Lets the browser run what waits (input, a frame) before the next step of a long start:
 * scheduler.yield() where the browser has it, else a macrotask.
 */
export function yieldToMainThread(): Promise<void> {
  const { scheduler } = globalThis as { scheduler?: { yield?: () => Promise<void> } };
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}
