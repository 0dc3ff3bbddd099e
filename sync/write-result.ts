import { isQuotaExceeded } from './errors.ts';

/**
 * Why a write was not accepted locally; nothing was queued or stored. 'storage-full': the
 * device has no room left (IndexedDB's QuotaExceededError); what was saved before stays.
 */
export type WriteError = 'invalid-input' | 'not-allowed' | 'not-found' | 'storage-full';

/** Result of a local write: errors are values, never exceptions. */
export type WriteResult<T = undefined> = { ok: true; value: T } | { ok: false; error: WriteError };

/**
 * Runs a local write; a full disk becomes the 'storage-full' value instead of an exception
 * (IndexedDB aborts the failed transaction, so earlier writes are untouched, A3). Any other
 * failure is a bug and is thrown.
 */
export async function guarded<T>(write: () => Promise<WriteResult<T>>): Promise<WriteResult<T>> {
  try {
    return await write();
  } catch (error) {
    if (isQuotaExceeded(error)) return { ok: false, error: 'storage-full' };
    throw error;
  }
}
