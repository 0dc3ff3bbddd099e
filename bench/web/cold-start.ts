import type { Page } from '@playwright/test';

/** Long enough for the IndexedDB backend and the service worker to finish what a page left. */
const QUIET_MS = 1000;

/**
 * Leaves the page for a blank one and waits, so the next navigation is a cold start as a
 * reopened app has it: the previous page measured is still finishing its own work (its
 * replication, its status bar, its listeners) when it has just shown what was waited for,
 * and a navigation straight from it would count that work, and its unload, in the next
 * start's time (about 30 ms of CPU on the doctor's hoje).
 */
export async function fromQuietBlank(page: Page): Promise<void> {
  await page.goto('about:blank');
  await page.waitForTimeout(QUIET_MS);
}
