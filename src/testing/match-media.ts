/** jsdom has no matchMedia; react-hot-toast calls the global one to ask about reduced motion. */
export function installMatchMedia(): void {
  if (typeof globalThis.matchMedia === 'function') return;
  const matchMedia = (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  });
  Object.defineProperty(globalThis, 'matchMedia', { value: matchMedia, configurable: true });
  Object.defineProperty(window, 'matchMedia', { value: matchMedia, configurable: true });
}
