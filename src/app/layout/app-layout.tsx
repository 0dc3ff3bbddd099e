import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useMatches } from 'react-router-dom';
import { css } from 'styled-system/css';
import { Footer } from './footer.tsx';
import { SyncIndicator } from '@/features/offline/sync-indicator.tsx';
import { markFirstRouteRendered, useAfterFirstPaint } from '@/lib/first-paint.ts';
import { Header } from './header.tsx';
import { PasswordChangeGate } from './password-change-gate.tsx';
import { RouteAnnouncer, useRouteFocus } from './route-focus.tsx';
import { UpdatePrompt } from './update-prompt.tsx';

type TitleHandle = { title?: string };

/** The deepest matched route's title; routes with data-driven titles render their own. */
function useRouteTitle(): string | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const title = (matches[i]?.handle as TitleHandle | undefined)?.title;
    if (title) return title;
  }
  return undefined;
}

const skipLink = css({
  position: 'absolute',
  left: '2',
  top: '-20',
  zIndex: 'skipLink',
  bg: 'primary',
  color: 'primary.fg',
  px: '4',
  py: '2',
  borderRadius: 'md',
  _focus: { top: '2' },
});

export function AppLayout() {
  const title = useRouteTitle();
  const announcement = useRouteFocus('conteudo');
  // The first route's screen has committed (its effects ran before this parent's): what waits
  // for the first paint may go once no screen holds it.
  useEffect(markFirstRouteRendered, []);
  const painted = useAfterFirstPaint();
  return (
    <div className={css({ minH: '100dvh', display: 'flex', flexDirection: 'column' })}>
      {title && <title>{title}</title>}
      <a href="#conteudo" className={skipLink}>
        Pular para o conteúdo
      </a>
      <Header />
      <SyncIndicator />
      {/* At least a screen tall, so the footer starts below the fold: a screen whose content
          arrives after its first paint (the replica's lists) then grows without pushing a
          visible footer down (a layout shift Lighthouse counted at 0.2–0.5 on the dashboard). */}
      <main
        id="conteudo"
        tabIndex={-1}
        className={css({ flex: '1', minH: '100dvh', _focus: { outline: 'none' } })}
      >
        <PasswordChangeGate>
          <Outlet />
        </PasswordChangeGate>
      </main>
      <Footer />
      <RouteAnnouncer message={announcement} />
      {/* The service worker registers after the first paint: its script and its install
          (precaching every asset) would otherwise compete with the first screen's own files. */}
      {painted && <UpdatePrompt />}
      <ScrollRestoration />
    </div>
  );
}
