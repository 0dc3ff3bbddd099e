/** How long the work waits for an idle moment before it runs anyway. */
const IDLE_TIMEOUT_MS = 2000;

/**
 * Runs `run` once what is on screen has been painted (rAF fires before the paint), the page
 * has loaded, and the main thread is idle: heavy work a screen can do without (the booking
 * page's replica engine) then never stands between a person and what they tap first.
 * Returns the cancel.
 */
export function whenIdleAfterPaint(run: () => void): () => void {
  let cancelled = false;
  let cancelStep: () => void = () => undefined;
  const step = (next: () => void) => {
    if (!cancelled) next();
  };
  const idle = () => {
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(() => step(run), { timeout: IDLE_TIMEOUT_MS });
      cancelStep = () => cancelIdleCallback(id);
    } else {
      const id = setTimeout(() => step(run), 0);
      cancelStep = () => clearTimeout(id);
    }
  };
  const loaded = () => {
    if (document.readyState === 'complete') return idle();
    const onLoad = () => step(idle);
    window.addEventListener('load', onLoad, { once: true });
    cancelStep = () => window.removeEventListener('load', onLoad);
  };
  const frame = requestAnimationFrame(() => {
    const id = setTimeout(() => step(loaded), 0);
    cancelStep = () => clearTimeout(id);
  });
  cancelStep = () => cancelAnimationFrame(frame);
  return () => {
    cancelled = true;
    cancelStep();
  };
}
