// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import type { AuthContextValue } from '@/session/auth-context.ts';
import type { Role } from '@/session/profile.ts';
import { RequireRole } from './require-role.tsx';
import { loadingAuth, signedIn, signedOut, WithAuth } from '@/testing/auth-state.tsx';

afterEach(cleanup);

function LoginProbe({ name }: { name: string }) {
  const location = useLocation();
  return (
    <p>
      {name} from {JSON.stringify(location.state)}
    </p>
  );
}

function renderGuarded(auth: AuthContextValue, roles: Role[], path = '/checkout?slot=1#top') {
  const router = createMemoryRouter(
    [
      {
        path: '/checkout',
        element: (
          <RequireRole roles={roles}>
            <p>conteúdo protegido</p>
          </RequireRole>
        ),
      },
      { path: '/acesso-paciente', element: <LoginProbe name="login paciente" /> },
      { path: '/acesso-medico', element: <LoginProbe name="login médico" /> },
      { path: '/', element: <p>início</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <WithAuth value={auth}>
      <RouterProvider router={router} />
    </WithAuth>,
  );
  return router;
}

describe('RequireRole (docs/product-rules.md §2 guarded-route wrapper)', () => {
  it('shows a spinner while the session and profile load', () => {
    renderGuarded(loadingAuth(), ['paciente']);
    expect(screen.getByRole('status').textContent).toContain('Carregando...');
    expect(screen.queryByText('conteúdo protegido')).toBeNull();
  });

  it('sends a signed-out visitor to the patient login, keeping where they were going', () => {
    const router = renderGuarded(signedOut(), ['paciente']);
    expect(router.state.location.pathname).toBe('/acesso-paciente');
    expect(router.state.location.state).toEqual({
      from: { pathname: '/checkout', search: '?slot=1', hash: '#top' },
    });
  });

  it('sends a signed-out visitor to the doctor login when doctors are allowed', () => {
    const router = renderGuarded(signedOut(), ['medico', 'paciente']);
    expect(router.state.location.pathname).toBe('/acesso-medico');
  });

  it("sends someone who just pressed 'Sair' home, not to a login screen", () => {
    const router = renderGuarded({ ...signedOut(), signedOutByUser: true }, ['paciente']);
    expect(router.state.location.pathname).toBe('/');
  });

  it('renders the page for an allowed role', () => {
    renderGuarded(signedIn('paciente'), ['paciente']);
    expect(screen.getByText('conteúdo protegido')).toBeTruthy();
  });

  it.each([
    ['medico' as const, ['paciente' as const], 'Esta área é exclusiva para pacientes.'],
    ['paciente' as const, ['medico' as const], 'Esta área é exclusiva para médicos.'],
  ])('refuses a %s on a page for %j', (role, roles, audience) => {
    renderGuarded(signedIn(role), roles);
    expect(screen.getByRole('heading', { name: 'Acesso Restrito' })).toBeTruthy();
    expect(screen.getByText('Você não tem permissão para acessar esta página.')).toBeTruthy();
    expect(screen.getByText(audience)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sair' })).toBeTruthy();
    expect(screen.queryByText('conteúdo protegido')).toBeNull();
  });
});

describe("'Sair' on the restricted notice", () => {
  it('goes home and ends the session', async () => {
    let signOuts = 0;
    const auth = {
      ...signedIn('paciente'),
      signOut: () => {
        signOuts += 1;
        return Promise.resolve();
      },
    };
    const router = renderGuarded(auth, ['medico']);
    fireEvent.click(screen.getByRole('button', { name: 'Sair' }));
    expect(await screen.findByText('início')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(signOuts).toBe(1);
  });
});
