import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';
import '@/testing/jsdom-globals.ts';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider, type InitialEntry } from 'react-router-dom';
import type { SupabaseClient } from '@supabase/supabase-js';
import { AuthProvider } from '@/session/auth-provider.tsx';
import { ChangePasswordPage } from '@/features/auth/change-password-page.tsx';
import { ConfirmSignupPage } from '@/features/auth/confirm-signup-page.tsx';
import { LoginPage } from '@/features/auth/login-page.tsx';
import { SignupSuccessPage } from '@/features/auth/signup-success-page.tsx';
import { Header } from './layout/header.tsx';
import { PasswordChangeGate } from './layout/password-change-gate.tsx';
import { RequireRole } from './require-role.tsx';
import { installMatchMedia } from '@/testing/match-media.ts';

let platform: TestPlatform;

beforeAll(async () => {
  installMatchMedia();
  platform = await startTestPlatform();
}, 120_000);

afterAll(async () => {
  await platform.stop();
});

afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

function renderApp(client: SupabaseClient, path: InitialEntry) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <p>início</p> },
      { path: '/acesso-paciente', element: <LoginPage target="paciente" /> },
      { path: '/acesso-medico', element: <LoginPage target="medico" /> },
      {
        path: '/conta/alterar-senha',
        element: (
          <RequireRole roles={['medico', 'paciente']}>
            <ChangePasswordPage />
          </RequireRole>
        ),
      },
      {
        path: '/medico/dashboard',
        element: (
          <RequireRole roles={['medico']}>
            <p>painel do médico</p>
          </RequireRole>
        ),
      },
      { path: '/cadastro-sucesso', element: <SignupSuccessPage /> },
      { path: '/confirmacao-cadastro', element: <ConfirmSignupPage /> },
      {
        path: '/paciente/dashboard',
        element: (
          <RequireRole roles={['paciente']}>
            <p>painel do paciente</p>
          </RequireRole>
        ),
      },
    ].map((route) => ({
      ...route,
      element: (
        <>
          <Header />
          <PasswordChangeGate>{route.element}</PasswordChangeGate>
        </>
      ),
    })),
    { initialEntries: [path] },
  );
  render(
    <AuthProvider client={client}>
      <RouterProvider router={router} />
      <Toaster />
    </AuthProvider>,
  );
  return router;
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { selector: 'input' }), { target: { value } });

async function signUpThroughForm(email: string) {
  fireEvent.click(await screen.findByRole('button', { name: 'Cadastre-se' }));
  type('Nome completo', 'Ana Souza');
  type('CPF', '52998224725');
  type('Data de nascimento', '05121990');
  type('WhatsApp (opcional)', '11987654321');
  type('E-mail', email);
  type('Senha', 'senha-forte-1');
  fireEvent.click(screen.getByRole('checkbox', { name: /Li e aceito/ }));
  fireEvent.click(screen.getByRole('button', { name: 'Criar Conta' }));
}

async function logInThroughForm(email: string, password: string) {
  const submit = await screen.findByRole('button', { name: 'Entrar' });
  type('E-mail', email);
  type('Senha', password);
  fireEvent.click(submit);
}

type MailboxMessage = {
  to: string;
  subject: string;
  links?: string[];
  html?: string;
  text?: string;
};

async function mailTo(email: string): Promise<MailboxMessage[]> {
  const response = await fetch(`${platform.url}/mailbox/api?to=${encodeURIComponent(email)}`, {
    headers: { apikey: platform.serviceRoleKey },
  });
  const body = (await response.json()) as { messages?: MailboxMessage[] } | MailboxMessage[];
  return Array.isArray(body) ? body : (body.messages ?? []);
}

describe('patient account flows against the local Supabase platform', () => {
  const email = 'ana.souza@example.com';

  it('signs up with the product-rules metadata and shows the success page', async () => {
    const router = renderApp(platform.client(), '/acesso-paciente');
    await signUpThroughForm(email);
    expect(
      await screen.findByText('Cadastro realizado com sucesso!', {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(router.state.location.state).toEqual({ email });
    expect(screen.getByText(email)).toBeTruthy();

    const { data } = await platform.admin.auth.admin.listUsers();
    const user = data.users.find((candidate) => candidate.email === email);
    // The personal fields reach the profile, then leave the user metadata (CONTRACT.md).
    expect(user?.user_metadata).toMatchObject({ role: 'paciente' });
    expect(user?.user_metadata).not.toHaveProperty('cpf');
    const profile = await platform.admin
      .from('perfis_usuarios')
      .select('full_name, cpf, data_nasc, whatsapp')
      .eq('id', user!.id)
      .single();
    expect(profile.data).toEqual({
      full_name: 'Ana Souza',
      cpf: '52998224725',
      data_nasc: '1990-12-05',
      whatsapp: '(11) 98765-4321',
    });
    const messages = await mailTo(email);
    expect(messages).toHaveLength(1);
    expect(JSON.stringify(messages[0])).toContain(
      encodeURIComponent(`${window.location.origin}/acesso-paciente`),
    );
  });

  it('answers a second sign-up with the same e-mail by sending the confirmation again', async () => {
    renderApp(platform.client(), '/acesso-paciente');
    await signUpThroughForm(email);
    expect(
      await screen.findByText('Cadastro realizado com sucesso!', {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.queryByText('Falha no Cadastro')).toBeNull();
    expect(await mailTo(email)).toHaveLength(2);
  });

  it("'Reenviar E-mail' sends the confirmation again to the e-mail it was given", async () => {
    renderApp(platform.client(), { pathname: '/confirmacao-cadastro', state: { email } });
    expect(screen.getByRole('heading', { name: 'Confirme seu E-mail' })).toBeTruthy();
    expect(screen.getByText('Sua conta foi criada com sucesso!')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reenviar E-mail' }));
    expect(await screen.findByText('E-mail reenviado!', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('Verifique sua caixa de entrada (e spam) novamente.')).toBeTruthy();
    expect(await mailTo(email)).toHaveLength(3);
  });

  it("'Reenviar E-mail' without an e-mail says it cannot tell where to send", async () => {
    renderApp(platform.client(), '/confirmacao-cadastro');
    expect(screen.getByText('seu e-mail')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reenviar E-mail' }));
    expect(
      await screen.findByText('Não foi possível identificar o e-mail para reenvio.'),
    ).toBeTruthy();
    expect(await mailTo(email)).toHaveLength(3);
  });

  it('refuses to log in before the e-mail is confirmed', async () => {
    renderApp(platform.client(), '/acesso-paciente');
    await logInThroughForm(email, 'senha-forte-1');
    expect(await screen.findByText('Falha no Login', {}, { timeout: 10_000 })).toBeTruthy();
    expect(
      screen.getByText(
        'Seu e-mail ainda não foi confirmado. Por favor, verifique sua caixa de entrada e clique no link de confirmação.',
      ),
    ).toBeTruthy();
  });

  it('does not say which of e-mail or password was wrong', async () => {
    renderApp(platform.client(), '/acesso-paciente');
    await logInThroughForm(email, 'senha-errada-1');
    expect(await screen.findByText('Falha no Login', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('Email ou senha inválidos.')).toBeTruthy();
  });

  it('after confirmation, brings the patient back to the page that asked for login', async () => {
    const { data } = await platform.admin.auth.admin.listUsers();
    const user = data.users.find((candidate) => candidate.email === email);
    await platform.admin.auth.admin.updateUserById(user!.id, { email_confirm: true });

    const router = renderApp(platform.client(), '/paciente/dashboard?aba=consultas');
    await screen.findByRole('button', { name: 'Entrar' });
    expect(router.state.location.pathname).toBe('/acesso-paciente');
    await logInThroughForm(email, 'senha-forte-1');

    expect(await screen.findByText('painel do paciente', {}, { timeout: 10_000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/paciente/dashboard');
    expect(router.state.location.search).toBe('?aba=consultas');
    expect(
      screen.getByText('E-mail confirmado com sucesso! Sua conta foi ativada. Bem-vindo!'),
    ).toBeTruthy();
    const nav = within(screen.getByRole('navigation', { name: 'Principal' }));
    expect(nav.getByRole('link', { name: 'Meu Painel' }).getAttribute('href')).toBe(
      '/paciente/dashboard',
    );

    fireEvent.click(nav.getByRole('button', { name: 'Sair' }));
    expect(await screen.findByText('início')).toBeTruthy();
    expect(await nav.findByRole('link', { name: 'Área do Paciente' })).toBeTruthy();
  });
});

describe('forced first-access password change', () => {
  it('keeps a flagged doctor on the change screen until a new password is saved', async () => {
    const email = 'dra.teste@example.com';
    const { data: created } = await platform.admin.auth.admin.createUser({
      email,
      password: 'Provisoria-1',
      email_confirm: true,
      user_metadata: { require_password_change: true },
      app_metadata: { role: 'medico' },
    });
    const router = renderApp(platform.client(), '/medico/dashboard');
    await screen.findByText('Acesso Restrito');
    expect(router.state.location.pathname).toBe('/acesso-medico');
    await logInThroughForm(email, 'Provisoria-1');

    expect(await screen.findByText('Crie sua nova senha', {}, { timeout: 10_000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/conta/alterar-senha');
    expect(router.state.location.search).toBe('?source=required');
    expect(screen.queryByRole('button', { name: 'Cancelar' })).toBeNull();

    await act(() => router.navigate('/medico/dashboard'));
    expect(router.state.location.pathname).toBe('/conta/alterar-senha');

    type('Nova Senha', 'senha-definitiva-1');
    type('Confirmar Nova Senha', 'senha-definitiva-1');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar Nova Senha' }));
    expect(await screen.findByText('painel do médico', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('Senha alterada com sucesso!')).toBeTruthy();
    expect(screen.getByText('Seu acesso está liberado.')).toBeTruthy();

    const { data } = await platform.admin.auth.admin.getUserById(created.user!.id);
    expect(data.user?.user_metadata.require_password_change).toBe(false);
  });
});
