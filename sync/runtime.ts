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
