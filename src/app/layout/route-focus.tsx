import { useEffect, useRef, useState } from 'react';
import { useLocation, useMatches } from 'react-router-dom';
import { css } from 'styled-system/css';

/** How long a page may take to show its heading (a spinner first, the replica after), or swap it. */
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

    let focused: HTMLElement | null = null;
    const focusHeading = (): boolean => {
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      focused = heading;
      setAnnouncement(document.title || heading.textContent || '');
      return true;
    };
    /**
     * Where focus is ours to move: still on `main` where we put it, or fallen to `<body>`
     * because the heading we focused was replaced (a page that swaps its heading once its
     * data arrives, as the success page does when the guide comes). Anywhere else, the
     * person has moved on.
     */
    const ours = () => {
      const active = document.activeElement;
      if (active === main) return true;
      const lost = active === null || active === document.body;
      return lost && focused !== null && !focused.isConnected;
    };
    if (!focusHeading()) main.focus({ preventScroll: true });
    // The heading may come a moment later, or be replaced; follow it while the page settles.
    const observer = new MutationObserver(() => {
      if (!ours()) {
        if (document.activeElement !== focused) observer.disconnect();
        return;
      }
      focusHeading();
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
