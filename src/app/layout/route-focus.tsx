import { useEffect, useRef, useState } from 'react';
import { useLocation, useMatches } from 'react-router-dom';
import { css } from 'styled-system/css';

/** How long a page may take to show its heading (a spinner first, the replica after). */
const HEADING_WAIT_MS = 3000;

/** The route a location renders; a change of pathname inside one route is an in-page change. */
function useRouteKey(): string {
  const matches = useMatches();
  return matches[matches.length - 1]?.id ?? '';
}

/**
 * Moves focus to the new page's main heading on every route change (or to `main` until the
 * heading renders), so a screen-reader user hears where they arrived, as accessible SPA routers
 * do. The first page load keeps the browser's own focus; a section change inside one route
 * (the dashboards' sections) keeps focus where the person put it.
 */
export function useRouteFocus(mainId: string): string {
  const { pathname } = useLocation();
  const routeKey = useRouteKey();
  const previous = useRef<{ routeKey: string; pathname: string } | null>(null);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    const before = previous.current;
    previous.current = { routeKey, pathname };
    if (!before || before.routeKey === routeKey || before.pathname === pathname) return;
    const main = document.getElementById(mainId);
    if (!main) return;

    const focusHeading = (): boolean => {
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      setAnnouncement(document.title || heading.textContent || '');
      return true;
    };
    if (focusHeading()) return;
    main.focus({ preventScroll: true });
    // The heading may come a moment later; move there only if focus is still where we put it.
    const observer = new MutationObserver(() => {
      if (document.activeElement !== main) observer.disconnect();
      else if (focusHeading()) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    const timer = window.setTimeout(() => {
      observer.disconnect();
      if (document.activeElement === main) setAnnouncement(document.title);
    }, HEADING_WAIT_MS);
    return () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
  }, [mainId, routeKey, pathname]);

  return announcement;
}

/** The polite live region that says which page arrived. */
export function RouteAnnouncer({ message }: { message: string }) {
  return (
    <p role="status" aria-live="polite" className={css({ srOnly: true })}>
      {message}
    </p>
  );
}
