// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { AuthContextValue } from '@/session/auth-context.ts';
import { loadingAuth, signedIn, signedOut, WithAuth } from '@/testing/auth-state.tsx';
import { Header } from './header.tsx';

afterEach(cleanup);

function renderHeader(auth: AuthContextValue) {
  const router = createMemoryRouter([{ path: '*', element: <Header /> }]);
  render(
    <WithAuth value={auth}>
      <RouterProvider router={router} />
    </WithAuth>,
  );
  return within(screen.getByRole('navigation', { name: 'Principal' }));
}

describe('Header', () => {
  it('offers both login areas to a visitor', () => {
    const nav = renderHeader(signedOut());
    expect(nav.getByRole('link', { name: 'Área do Paciente' }).getAttribute('href')).toBe(
      '/acesso-paciente',
    );
    expect(nav.getByRole('link', { name: 'Área do Médico' }).getAttribute('href')).toBe(
      '/acesso-medico',
    );
    expect(nav.queryByRole('link', { name: 'Meu Painel' })).toBeNull();
    expect(nav.queryByRole('button', { name: 'Sair' })).toBeNull();
  });

  it.each([
    ['paciente' as const, '/paciente/dashboard'],
    ['medico' as const, '/medico/dashboard'],
  ])("sends a signed-in %s to their own dashboard from 'Meu Painel'", (role, path) => {
    const nav = renderHeader(signedIn(role));
    expect(nav.getByRole('link', { name: 'Meu Painel' }).getAttribute('href')).toBe(path);
    expect(nav.getByRole('button', { name: 'Sair' })).toBeTruthy();
    expect(nav.queryByRole('link', { name: 'Área do Paciente' })).toBeNull();
    expect(nav.queryByRole('link', { name: 'Área do Médico' })).toBeNull();
  });

  it('shows neither set of actions while the session is still unknown', () => {
    const nav = renderHeader(loadingAuth());
    expect(nav.queryByRole('link', { name: 'Área do Paciente' })).toBeNull();
    expect(nav.queryByRole('link', { name: 'Meu Painel' })).toBeNull();
  });

  it("always links 'Agendar Consulta' to the booking page and the brand home", () => {
    const nav = renderHeader(signedOut());
    expect(nav.getByRole('link', { name: 'Agendar Consulta' }).getAttribute('href')).toBe(
      '/agendamentos',
    );
    expect(screen.getByRole('link', { name: /página inicial/ }).getAttribute('href')).toBe('/');
  });
});
