import { READ_RETRIES, readRetryDelayMs } from '@/domain/requests/retry-policy.ts';

export type Wait = (ms: number) => Promise<void>;

const realWait: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A read that failed every attempt; `last` is the final attempt's failure. */
export class ReadRetriesExhausted extends Error {
  override readonly name = 'ReadRetriesExhausted';
  constructor(readonly last: unknown) {
    super(`read failed after ${READ_RETRIES + 1} attempts`, { cause: last });
  }
}

/**
 * Runs `read`, and on a failure `retryable` accepts, up to READ_RETRIES more times, 1.5ⁿ s
 * apart (docs/product-rules.md §9 "requests"). A failure it does not accept (the server's
 * refusal) is thrown at once.
 */
export async function retryRead<T>(
  read: () => Promise<T>,
  { retryable, wait = realWait }: { retryable: (error: unknown) => boolean; wait?: Wait },
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (!retryable(error)) throw error;
      if (attempt === READ_RETRIES) throw new ReadRetriesExhausted(error);
      await wait(readRetryDelayMs(attempt + 1));
    }
  }
}
