// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createClient } from '@supabase/supabase-js';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { LoginModal } from './login-modal.tsx';
import { SupabaseContext } from '@/session/supabase-context.ts';

afterEach(cleanup);

const unusedClient = createClient('http://127.0.0.1:9', 'anon-key', {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
});

function renderModal(open: boolean) {
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <LoginModal open={open} onOpenChange={() => undefined} onSuccess={() => undefined} />
      ),
    },
  ]);
  render(
    <SupabaseContext.Provider value={unusedClient}>
      <RouterProvider router={router} />
    </SupabaseContext.Provider>,
  );
}

describe('LoginModal', () => {
  it('is a labelled dialog holding the patient login form', async () => {
    renderModal(true);
    const dialog = await screen.findByRole('dialog', { name: 'Acesse sua conta para continuar' });
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(
      screen.getByText('Faça login ou crie uma conta para agendar sua consulta.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Entrar' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cadastre-se' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Fechar' })).toBeTruthy();
  });

  it('renders nothing while closed', () => {
    renderModal(false);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
