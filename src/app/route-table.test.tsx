// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider, useMatches } from 'react-router-dom';
import type { AuthContextValue } from '@/session/auth-context.ts';
import { appRoutes, toRouteObject, unknownPathRoute } from './route-table.tsx';
import { signedIn, signedOut, WithAuth } from '@/testing/auth-state.tsx';

afterEach(cleanup);

/** docs/product-rules.md §2 route table: path → who may open it. */
const SPEC_ACCESS: Record<string, string> = {
  '/': 'public',
  '/agendamentos': 'public',
  '/suporte': 'public',
  '/termos': 'public',
  '/privacidade': 'public',
  '/reembolso': 'public',
  '/consentimento': 'public',
  '/medico/:id': 'public',
  '/acesso-paciente': 'public',
  '/acesso-medico': 'public',
  '/recuperar-senha': 'public',
  '/auth/reset-password': 'public',
  '/confirmacao-cadastro': 'public',
  '/cadastro-sucesso': 'public',
  '/medico/dashboard/*': 'medico',
  '/paciente/dashboard/*': 'paciente',
  '/conta/alterar-senha': 'medico,paciente',
  '/checkout': 'paciente',
  '/confirmacao': 'paciente',
  '/agendamento-sucesso': 'paciente',
  '/guia/:guideId': 'medico,paciente',
  '/consulta/:agendamentoId': 'medico,paciente',
  '/admin/cleanup-doctors': 'public',
  '/admin/handle-application': 'public',
  ...Object.fromEntries(
    ['ana', 'paulo'].flatMap((name) =>
      [
        `/setup-admin-${name}`,
        `/admin/setup-${name}`,
        `/admin/create-${name}`,
        `/admin/link-${name}`,
        `/admin/link-second-${name}`,
        `/admin/sync-${name}`,
      ].map((path) => [path, 'public']),
    ),
  ),
  '/setup-admin-ana-paulo': 'public',
  '/admin/setup-ana-paulo': 'public',
};

function TitleProbe() {
  const title = useMatches()
    .map((match) => (match.handle as { title?: string } | undefined)?.title)
    .filter(Boolean)
    .pop();
  return (
    <>
      <p>título: {title ?? '(da página)'}</p>
      <Outlet />
    </>
  );
}

/** The real table and guards, with each screen stood in for by its path. */
function renderAt(path: string, auth: AuthContextValue) {
  const routes = appRoutes.map((route) =>
    toRouteObject({
      path: route.path,
      roles: route.roles,
      title: route.title,
      component: () => <p>tela {route.path}</p>,
    }),
  );
  const router = createMemoryRouter(
    [{ element: <TitleProbe />, children: [...routes, unknownPathRoute] }],
    { initialEntries: [path] },
  );
  render(
    <WithAuth value={auth}>
      <RouterProvider router={router} />
    </WithAuth>,
  );
  return router;
}

describe('route table', () => {
  it('has exactly the routes of docs/product-rules.md §2 with their access rules', () => {
    const access = Object.fromEntries(
      appRoutes.map((route) => [
        route.path,
        route.roles ? [...route.roles].sort().join(',') : 'public',
      ]),
    );
    expect(access).toEqual(SPEC_ACCESS);
  });

  it.each([
    ['/checkout', '/acesso-paciente'],
    ['/agendamento-sucesso', '/acesso-paciente'],
    ['/paciente/dashboard/dados', '/acesso-paciente'],
    ['/medico/dashboard/agenda', '/acesso-medico'],
    ['/guia/123', '/acesso-medico'],
    ['/conta/alterar-senha', '/acesso-medico'],
  ])('sends a visitor from %s to %s', async (path, login) => {
    const router = renderAt(path, signedOut());
    expect(await screen.findByText(`tela ${login}`)).toBeTruthy();
    expect(router.state.location.pathname).toBe(login);
  });

  it('opens a guarded page for the right role', async () => {
    renderAt('/guia/123', signedIn('paciente'));
    expect(await screen.findByText('tela /guia/:guideId')).toBeTruthy();
  });

  it('sends unknown paths home', async () => {
    const router = renderAt('/nao/existe', signedOut());
    expect(await screen.findByText('tela /')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('titles the landing page as the product rules (docs/product-rules.md) say', async () => {
    renderAt('/', signedOut());
    expect(
      await screen.findByText('título: Saúde Já - Sua saúde a um clique de distância'),
    ).toBeTruthy();
  });
});
