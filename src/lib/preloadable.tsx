import { lazy, type ComponentType } from 'react';

/**
 * A lazily loaded component whose code can be asked for before it first renders, and which,
 * once loaded, renders the component itself instead of suspending. A React.lazy component
 * always suspends on its first render, even when its module is already there, and React
 * reveals content that replaced a Suspense fallback at most every 300 ms (react-dom's
 * fallback throttle): the doctor's hoje section appeared ~300 ms after its code and the
 * doctor's record were in (offline cold start, bench/web).
 */
export function preloadable<P extends object>(
  load: () => Promise<ComponentType<P>>,
): {
  Component: ComponentType<P>;
  preload: () => Promise<ComponentType<P>>;
} {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return component;
    }));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Preloadable(props: P) {
    const Loaded = loaded ?? Lazy;
    return <Loaded {...props} />;
  }
  return { Component: Preloadable, preload };
}
