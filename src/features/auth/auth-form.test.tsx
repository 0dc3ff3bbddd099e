// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createClient } from '@supabase/supabase-js';
import toast, { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { Temporal } from 'temporal-polyfill';
import { CONSENT_REQUIRED, type AuthTarget } from '@/domain/schemas/auth.ts';
import { MESSAGES } from '@/domain/schemas/fields.ts';
import { installMatchMedia } from '@/testing/match-media.ts';
import { AuthForm, type AuthMode } from './auth-form.tsx';
import { ERROR_MESSAGES } from '@/domain/errors/messages.ts';
import { PasswordForm } from './password-form.tsx';
import { SupabaseContext } from '@/session/supabase-context.ts';

installMatchMedia();

afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

/** A real client for an API that is not there: what the form meets when the person is offline. */
const offlineClient = createClient('http://127.0.0.1:9', 'anon-key', {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
});

function renderForm(target: AuthTarget, initialMode: AuthMode = 'login') {
  const router = createMemoryRouter([
    { path: '/', element: <AuthForm target={target} initialMode={initialMode} /> },
  ]);
  render(
    <SupabaseContext.Provider value={offlineClient}>
      <RouterProvider router={router} />
      <Toaster />
    </SupabaseContext.Provider>,
  );
}

const field = (label: string) => screen.getByLabelText(label, { selector: 'input' });
const type = (label: string, value: string) =>
  fireEvent.change(field(label), { target: { value } });
const submit = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

/** dd/MM/yyyy of the day someone turns `age` tomorrow, in São Paulo. */
function birthDateTurning(age: number, daysFromToday: number): string {
  const day = Temporal.Now.plainDateISO('America/Sao_Paulo')
    .subtract({ years: age })
    .add({ days: daysFromToday });
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(day.day)}/${pad(day.month)}/${day.year}`;
}

describe('sign-up validation (docs/product-rules.md §5)', () => {
  it('names every missing required field', async () => {
    renderForm('paciente', 'signup');
    submit('Criar Conta');
    expect(await screen.findByText('Nome é obrigatório')).toBeTruthy();
    expect(screen.getByText('CPF é obrigatório')).toBeTruthy();
    expect(screen.getByText('Data de nascimento é obrigatória')).toBeTruthy();
    expect(screen.getByText('E-mail é obrigatório')).toBeTruthy();
    expect(screen.getByText('Senha é obrigatória')).toBeTruthy();
    expect(field('Nome completo').getAttribute('aria-invalid')).toBe('true');
  });

  it('requires the telemedicine consent, with links to the terms', async () => {
    renderForm('paciente', 'signup');
    submit('Criar Conta');
    expect(await screen.findByText(CONSENT_REQUIRED)).toBeTruthy();
    const box = screen.getByRole('checkbox', { name: /Li e aceito/ });
    expect(box.getAttribute('aria-invalid')).toBe('true');
    for (const [name, href] of [
      ['Termo de Consentimento para Telemedicina', '/consentimento'],
      ['Termos de Serviço', '/termos'],
      ['Política de Privacidade', '/privacidade'],
    ]) {
      expect(screen.getByRole('link', { name }).getAttribute('href')).toBe(href);
    }
    fireEvent.click(box);
    submit('Criar Conta');
    await waitFor(() => expect(screen.queryByText(CONSENT_REQUIRED)).toBeNull());
  });

  it('leaves WhatsApp optional', async () => {
    renderForm('paciente', 'signup');
    submit('Criar Conta');
    await screen.findByText('Nome é obrigatório');
    expect(field('WhatsApp (opcional)').getAttribute('aria-invalid')).toBeNull();
  });

  it('takes a partial or foreign WhatsApp as typed, with a gentle hint for a short one', async () => {
    renderForm('paciente', 'signup');
    type('WhatsApp (opcional)', '119876');
    expect((field('WhatsApp (opcional)') as HTMLInputElement).value).toBe('(11) 9876');
    expect(screen.getByText(MESSAGES.whatsappLooksIncomplete)).toBeTruthy();
    submit('Criar Conta');
    await screen.findByText('Nome é obrigatório');
    expect(field('WhatsApp (opcional)').getAttribute('aria-invalid')).toBeNull();
    type('WhatsApp (opcional)', '+351 912 345 678');
    expect((field('WhatsApp (opcional)') as HTMLInputElement).value).toBe('+351 912 345 678');
    expect(screen.queryByText(MESSAGES.whatsappLooksIncomplete)).toBeNull();
  });

  it('refuses a CPF with wrong check digits, a minor, a bad e-mail and a short password', async () => {
    renderForm('paciente', 'signup');
    type('Nome completo', 'Ana Souza');
    type('CPF', '529.982.247-24');
    type('Data de nascimento', birthDateTurning(18, 1));
    type('E-mail', 'ana@');
    type('Senha', '1234567');
    submit('Criar Conta');
    // The product rules (docs/product-rules.md) give no wording for a wrong CPF; the domain's message is the product's.
    expect(await screen.findByText(MESSAGES.cpfInvalid)).toBeTruthy();
    expect(screen.getByText('Você deve ter no mínimo 18 anos.')).toBeTruthy();
    expect(screen.getByText('Endereço de e-mail inválido')).toBeTruthy();
    expect(screen.getByText('A senha deve ter no mínimo 8 caracteres')).toBeTruthy();
    expect(screen.queryByText('Nome é obrigatório')).toBeNull();
  });

  it('accepts someone who turns 18 today', async () => {
    renderForm('paciente', 'signup');
    type('Data de nascimento', birthDateTurning(18, 0));
    submit('Criar Conta');
    await screen.findByText('Nome é obrigatório');
    expect(screen.queryByText('Você deve ter no mínimo 18 anos.')).toBeNull();
    expect(screen.queryByText('Data de nascimento é obrigatória')).toBeNull();
  });

  it('masks CPF, birth date and WhatsApp as they are typed', () => {
    renderForm('paciente', 'signup');
    type('CPF', '52998224725');
    type('Data de nascimento', '05121990');
    type('WhatsApp (opcional)', '11987654321');
    expect((field('CPF') as HTMLInputElement).value).toBe('529.982.247-25');
    expect((field('Data de nascimento') as HTMLInputElement).value).toBe('05/12/1990');
    expect((field('WhatsApp (opcional)') as HTMLInputElement).value).toBe('(11) 98765-4321');
    expect(field('CPF').getAttribute('placeholder')).toBe('000.000.000-00');
    expect(field('Data de nascimento').getAttribute('placeholder')).toBe('DD/MM/AAAA');
    expect(field('WhatsApp (opcional)').getAttribute('placeholder')).toBe('(00) 00000-0000');
  });
});

describe('login validation', () => {
  it('requires e-mail and password', async () => {
    renderForm('paciente');
    submit('Entrar');
    expect(await screen.findByText('E-mail é obrigatório')).toBeTruthy();
    expect(screen.getByText('Senha é obrigatória')).toBeTruthy();
  });

  it('holds patients to 8 characters', async () => {
    renderForm('paciente');
    type('E-mail', 'ana@example.com');
    type('Senha', 'curta');
    submit('Entrar');
    expect(await screen.findByText('A senha deve ter no mínimo 8 caracteres')).toBeTruthy();
  });

  it('only asks doctors for a password, whatever its length, then tries to sign in', async () => {
    renderForm('medico');
    submit('Entrar');
    expect(await screen.findByText('Senha é obrigatória')).toBeTruthy();
    type('E-mail', 'medico@example.com');
    type('Senha', 'curta');
    submit('Entrar');
    expect(await screen.findByText('Falha no Login', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText(ERROR_MESSAGES.network)).toBeTruthy();
    expect(screen.queryByText('Senha é obrigatória')).toBeNull();
    expect(screen.queryByText('A senha deve ter no mínimo 8 caracteres')).toBeNull();
  });

  it('gives doctors no way to sign up', () => {
    renderForm('medico', 'signup');
    expect(screen.queryByRole('button', { name: 'Cadastre-se' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Criar Conta' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Entrar' })).toBeTruthy();
  });

  it('lets patients switch between login and sign-up, with a forgot-password link', () => {
    renderForm('paciente');
    expect(screen.getByRole('link', { name: 'Esqueceu sua senha?' }).getAttribute('href')).toBe(
      '/recuperar-senha',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Cadastre-se' }));
    expect(screen.getByRole('button', { name: 'Criar Conta' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(screen.getByRole('link', { name: 'Esqueceu sua senha?' })).toBeTruthy();
  });
});

describe('new password validation (docs/product-rules.md §5 passwords)', () => {
  function renderPasswordForm() {
    const submitted: unknown[] = [];
    render(
      <PasswordForm
        onSubmit={(values) => {
          submitted.push(values);
          return Promise.resolve();
        }}
      />,
    );
    return submitted;
  }

  it('requires both fields', async () => {
    renderPasswordForm();
    submit('Salvar Nova Senha');
    expect(await screen.findByText('Nova senha é obrigatória')).toBeTruthy();
    expect(screen.getByText('Confirmação é obrigatória')).toBeTruthy();
  });

  it('refuses a short password and a confirmation that differs', async () => {
    renderPasswordForm();
    type('Nova Senha', '1234567');
    type('Confirmar Nova Senha', '7654321');
    submit('Salvar Nova Senha');
    expect(await screen.findByText('A senha deve ter no mínimo 8 caracteres')).toBeTruthy();
    type('Nova Senha', 'senha-forte-1');
    submit('Salvar Nova Senha');
    expect(await screen.findByText('As senhas não coincidem')).toBeTruthy();
  });

  it('submits matching passwords', async () => {
    const submitted = renderPasswordForm();
    type('Nova Senha', 'senha-forte-1');
    type('Confirmar Nova Senha', 'senha-forte-1');
    submit('Salvar Nova Senha');
    await waitFor(() =>
      expect(submitted).toEqual([{ password: 'senha-forte-1', confirmPassword: 'senha-forte-1' }]),
    );
  });

  it('shows and hides each password on request', () => {
    renderPasswordForm();
    expect(field('Nova Senha').getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Mostrar nova senha' }));
    expect(field('Nova Senha').getAttribute('type')).toBe('text');
    expect(field('Confirmar Nova Senha').getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Ocultar nova senha' }));
    expect(field('Nova Senha').getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Mostrar confirmação da nova senha' }));
    expect(field('Confirmar Nova Senha').getAttribute('type')).toBe('text');
  });
});
