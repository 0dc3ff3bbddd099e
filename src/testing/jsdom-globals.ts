import { JSDOM } from 'jsdom';
import { populateGlobal } from 'vitest/environments';

/**
 * A browser DOM for test files that also run the local platform in-process. Such files use
 * Vitest's node environment (the jsdom environment rewrites `new URL(…, import.meta.url)`,
 * which the platform uses to find its SQL); import this module after the platform and before
 * React so the DOM exists when they load. Only DOM globals are taken from jsdom: Node keeps its
 * own typed arrays and URL, which the platform's crypto and file access check by identity.
 */
const dom = new JSDOM('<!doctype html><html lang="pt-BR"><body></body></html>', {
  url: 'http://localhost:3000/',
  pretendToBeVisual: true,
});
populateGlobal(globalThis, dom.window, { bindFunctions: true });
