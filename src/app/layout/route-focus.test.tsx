// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, Link, Outlet, RouterProvider } from 'react-router-dom';
import { RouteAnnouncer, useRouteFocus } from './route-focus.tsx';

afterEach(cleanup);

function Layout() {
  const announcement = useRouteFocus('main');
  return (
    <>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <RouteAnnouncer message={announcement} />
    </>
  );
}

let arrive: () => void = () => undefined;

/** A page whose heading is a new element once its data arrives (the success page's guide). */
function SwappedHeading() {
  const [ready, setReady] = useState(false);
  arrive = () => setReady(true);
  return ready ? (
    <div key="ready">
      <h1>Agendamento Concluído!</h1>
    </div>
  ) : (
    <div key="pending">
      <h1>Horário agendado com sucesso!</h1>
    </div>
  );
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        element: <Layout />,
        children: [
          {
            path: '/',
            element: (
              <>
                <h1>Início</h1>
                <Link to="/painel/consultas">Meu Painel</Link>
              </>
            ),
          },
          {
            path: '/painel/*',
            element: (
              <>
                <h1>Painel</h1>
                <Link to="/painel/dados">Meus Dados</Link>
              </>
            ),
          },
          { path: '/lento', element: <p>carregando…</p> },
          { path: '/troca', element: <SwappedHeading /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('focus after navigation', () => {
  it('leaves the first page load to the browser', () => {
    renderAt('/');
    expect(document.activeElement).toBe(document.body);
  });

  it("moves focus to the new page's heading and announces the page", () => {
    renderAt('/');
    const link = screen.getByRole('link', { name: 'Meu Painel' });
    link.focus();
    act(() => link.click());
    const heading = screen.getByRole('heading', { name: 'Painel' });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByRole('status').textContent).toBe('Painel');
  });

  it('keeps focus where it is for a section change inside the same page', () => {
    renderAt('/painel/consultas');
    const link = screen.getByRole('link', { name: 'Meus Dados' });
    link.focus();
    act(() => link.click());
    expect(document.activeElement).toBe(link);
  });

  it('focuses the main region while the page has no heading yet', async () => {
    const router = renderAt('/');
    await act(() => router.navigate('/lento'));
    expect(document.activeElement).toBe(document.getElementById('main'));
  });

  it('follows a heading the page replaces while it settles (after a keyboard confirm)', async () => {
    const router = renderAt('/');
    await act(() => router.navigate('/troca', { replace: true }));
    expect(document.activeElement?.textContent).toBe('Horário agendado com sucesso!');
    act(() => arrive());
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('heading', { name: 'Agendamento Concluído!' }),
      ),
    );
  });

  it('leaves focus where the person moved it while the page settles', async () => {
    const router = renderAt('/');
    await act(() => router.navigate('/troca'));
    const elsewhere = document.createElement('button');
    document.body.append(elsewhere);
    elsewhere.focus();
    act(() => arrive());
    await act(() => Promise.resolve());
    expect(document.activeElement).toBe(elsewhere);
    elsewhere.remove();
  });
});
