/**
 * Resolves in a later task, so the browser can paint or answer input in between: for a
 * start-up whose steps would otherwise run back to back as one long task (a slow phone counts
 * each of them as blocking time). scheduler.yield() where the browser has it, else a macrotask.
 */
export function nextTask(): Promise<void> {
  const { scheduler } = globalThis as { scheduler?: { yield?: () => Promise<void> } };
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}
