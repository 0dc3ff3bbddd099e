import { useCallback, useSyncExternalStore } from 'react';

/**
 * Persistent storage for the replica: without it Chromium may evict the origin's IndexedDB
 * under storage pressure, the queue of unsent changes included. Asked once per page life,
 * once someone is signed in (SyncProvider); a refusal is told once per device, gently: an
 * installed app is kept (Chromium grants installed and engaged sites persistence).
 */
type Outcome = 'unknown' | 'granted' | 'refused' | 'unsupported';

const HINT_SHOWN_KEY = 'saude-ja:install-hint-shown';
let outcome: Outcome = 'unknown';
let hintDue = false;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** True the first time on this device; later refusals stay quiet. */
function claimHint(): boolean {
  try {
    if (localStorage.getItem(HINT_SHOWN_KEY)) return false;
    localStorage.setItem(HINT_SHOWN_KEY, '1');
    return true;
  } catch {
    return false;
  }
}

export async function requestPersistentStorage(): Promise<void> {
  if (outcome !== 'unknown') return;
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (!storage || typeof storage.persist !== 'function') {
    outcome = 'unsupported';
    return;
  }
  outcome = 'refused';
  try {
    if ((await storage.persisted()) || (await storage.persist())) outcome = 'granted';
  } catch {
    outcome = 'unsupported';
  }
  if (outcome === 'refused' && claimHint()) {
    hintDue = true;
    notify();
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether to show the install hint now, and how the person puts it away. */
export function useInstallHint(): { show: boolean; dismiss: () => void } {
  const show = useSyncExternalStore(
    subscribe,
    () => hintDue,
    () => false,
  );
  const dismiss = useCallback(() => {
    hintDue = false;
    notify();
  }, []);
  return { show, dismiss };
}
