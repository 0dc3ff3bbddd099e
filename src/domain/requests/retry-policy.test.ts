import { describe, expect, it } from 'vitest';
import { appError } from '../errors/app-error.ts';
import { retryDelayMs, shouldRetry } from './retry-policy.ts';

describe('retryDelayMs (1.5^n seconds)', () => {
  it.each([
    [1, 1500],
    [2, 2250],
    [3, 3375],
  ])('retry %d waits %d ms', (retry, ms) => {
    expect(retryDelayMs(retry)).toBe(ms);
  });
});

describe('shouldRetry', () => {
  it.each([
    ['timeout, first failure', 'timeout', 0, true],
    ['network, after two retries', 'network', 2, true],
    ['server unavailable, after three retries: give up', 'server-unavailable', 3, false],
    ['slot taken is never retried', 'slot-taken', 0, false],
    ['a business rule is never retried', 'slot-in-past', 0, false],
    ['permission denied is never retried', 'permission-denied', 0, false],
  ])('%s', (_name, code, retriesSoFar, expected) => {
    expect(shouldRetry(appError(code, 'mensagem', 'cause'), retriesSoFar)).toBe(expected);
  });
});
