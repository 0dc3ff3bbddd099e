import { useEffect, useSyncExternalStore } from 'react';

/**
 * Number of flows (a booking being created or confirmed) that an app update must not
 * interrupt. The update prompt waits while it is above zero. A plain counter with
 * `useSyncExternalStore` rather than a state library: it sits in every screen's first bundle.
 */
let holds = 0;
const listeners = new Set<() => void>();

function setHolds(next: number): void {
  holds = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const readHolds = () => holds;

/** How many flows hold updates back right now. */
export function useUpdateHolds(): number {
  return useSyncExternalStore(subscribe, readHolds, readHolds);
}

/** Holds app updates back while `active` is true, e.g. from slot choice until the guide exists. */
export function useHoldUpdates(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    setHolds(holds + 1);
    return () => setHolds(holds - 1);
  }, [active]);
}
