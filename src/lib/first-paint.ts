import { useEffect, useState } from 'react';
import { whenIdleAfterPaint } from './when-idle.ts';

/**
 * The first screen's paint, as a gate for JavaScript it does not need (supabase-js): such work
 * waits until the app shell has rendered its first route, no screen holds the gate (the booking
 * page holds it until its first response is on screen), and the page is idle after painting.
 */
let routeRendered = false;
let holds = 0;
const waiting = new Set<() => void>();

function open(): void {
  if (!routeRendered || holds > 0) return;
  for (const ready of [...waiting]) ready();
}

/** The app shell's first route is committed: effects of its screen (their holds) have run. */
export function markFirstRouteRendered(): void {
  if (routeRendered) return;
  routeRendered = true;
  open();
}

/** Held by a screen whose content waits for the network. Returns the release (idempotent). */
export function holdFirstPaint(): () => void {
  holds++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds--;
    open();
  };
}

/**
 * Runs `run` once after the first screen is painted and the page is idle (when-idle.ts).
 * Returns the cancel.
 */
export function afterFirstPaint(run: () => void): () => void {
  let cancelIdle: (() => void) | null = null;
  const ready = () => {
    waiting.delete(ready);
    cancelIdle = whenIdleAfterPaint(() => {
      cancelIdle = null;
      // A screen may have taken the gate while this waited for an idle moment.
      if (holds > 0) {
        waiting.add(ready);
        return;
      }
      run();
    });
  };
  waiting.add(ready);
  open();
  return () => {
    waiting.delete(ready);
    cancelIdle?.();
  };
}

/** False until the first screen is painted and the page is idle (`afterFirstPaint`). */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => afterFirstPaint(() => setPainted(true)), []);
  return painted;
}
