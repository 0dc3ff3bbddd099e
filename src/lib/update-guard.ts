import { useEffect } from 'react';
import { atom, useSetAtom } from 'jotai';

/**
 * Number of flows (a booking being created or confirmed) that an app update must not
 * interrupt. The update prompt waits while it is above zero.
 */
export const updateHoldsAtom = atom(0);

/** Holds app updates back while `active` is true, e.g. from slot choice until the guide exists. */
export function useHoldUpdates(active: boolean): void {
  const setHolds = useSetAtom(updateHoldsAtom);
  useEffect(() => {
    if (!active) return;
    setHolds((n) => n + 1);
    return () => setHolds((n) => n - 1);
  }, [active, setHolds]);
}
