import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../../sync/testing/index.ts';
import '@/testing/jsdom-globals.ts';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { SupabaseClient } from '@supabase/supabase-js';
import { SupabaseContext } from '@/session/supabase-context.ts';
import { signApplicationToken } from '../../../supabase/functions/_shared/application-token.ts';
import { ApplicationPage, CleanupPage, DoctorSetupPage } from './index.ts';
import { DOCTOR_SETUP_PATHS } from './setup-paths.ts';

const SETUP_TOKEN = 'token-de-configuracao-das-paginas';
const ANA_ID = 'a0000000-0000-4000-8000-000000000001';
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({
    seedFile: 'supabase/seed.sql',
    config: { setupToken: SETUP_TOKEN },
  });
}, 120_000);

afterAll(() => platform.stop());

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

/** The pages as the route table mounts them, with the real functions behind them. */
function renderAt(path: string, client: SupabaseClient = platform.client()) {
  const router = createMemoryRouter(
    [
      ...DOCTOR_SETUP_PATHS.map((p) => ({ path: p, element: <DoctorSetupPage /> })),
      { path: '/admin/cleanup-doctors', element: <CleanupPage /> },
      { path: '/admin/handle-application', element: <ApplicationPage /> },
      { path: '*', element: <p>outra página</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <SupabaseContext.Provider value={client}>
      <RouterProvider router={router} />
    </SupabaseContext.Provider>,
  );
}

const LONG = { timeout: 20_000 };

async function enterToken(token: string) {
  fireEvent.change(
    await screen.findByLabelText('Token de configuração', { selector: 'input' }, LONG),
    {
      target: { value: token },
    },
  );
  fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
}

describe('fixed-doctor setup pages', () => {
  it('a link page before the account exists says what failed and links home', async () => {
    renderAt('/admin/link-ana');
    expect(screen.getByRole('heading', { name: 'Configuração de Conta de Médico' })).toBeTruthy();
    const alert = await screen.findByRole('alert', {}, LONG);
    expect(alert.textContent).toContain('Ocorreu um erro ao executar a configuração.');
    expect(alert.textContent).toContain('não encontrada');
    expect(screen.getByRole('link', { name: 'Voltar ao início' }).getAttribute('href')).toBe('/');
  });

  it('the first setup runs without a token and sends the doctor to the login', async () => {
    renderAt('/setup-admin-ana');
    expect(screen.getByText('Executando a configuração...')).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'Ir para o Login do Médico' }, LONG);
    expect(link.getAttribute('href')).toBe('/acesso-medico');
    const { data } = await platform.admin
      .from('medicos')
      .select('user_id')
      .eq('id', ANA_ID)
      .single();
    expect((data as { user_id: string | null }).user_id).not.toBeNull();
  });

  it("a second visit answers 'Nenhuma ação foi necessária.'", async () => {
    renderAt('/admin/setup-ana');
    expect(await screen.findByText('Nenhuma ação foi necessária.', {}, LONG)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ir para o Login do Médico' })).toBeTruthy();
  });

  it('a change to existing state asks for the setup token, refuses a wrong one, runs with the right one', async () => {
    await platform.admin.from('medicos').update({ specialty: 'Outra' }).eq('id', ANA_ID);
    renderAt('/admin/sync-ana');
    await enterToken('um-token-errado-qualquer');
    expect(await screen.findByText('Token de configuração inválido.', {}, LONG)).toBeTruthy();
    await enterToken(SETUP_TOKEN);
    expect(
      await screen.findByRole('link', { name: 'Ir para o Login do Médico' }, LONG),
    ).toBeTruthy();
    const { data } = await platform.admin
      .from('medicos')
      .select('specialty')
      .eq('id', ANA_ID)
      .single();
    expect((data as { specialty: string }).specialty).toBe('Clínica Geral');
  });

  it('the both-doctors page runs create-and-link-ana-paulo and shows what each doctor needed', async () => {
    renderAt('/admin/setup-ana-paulo');
    expect(screen.getByText('Executando a configuração...')).toBeTruthy();
    expect(
      await screen.findByText(
        'A conta de Dra. Ana Ribeiro já está configurada e vinculada. ' +
          'Conta de Dr. Paulo Mendes configurada e vinculada ao perfil de médico.',
        {},
        LONG,
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ir para o Login do Médico' })).toBeTruthy();
    cleanup();
    renderAt('/setup-admin-ana-paulo');
    expect(await screen.findByText('Nenhuma ação foi necessária.', {}, LONG)).toBeTruthy();
  });
});

describe('cleanup page', () => {
  it('never runs before the setup token is given', async () => {
    renderAt('/admin/cleanup-doctors');
    expect(
      await screen.findByLabelText('Token de configuração', { selector: 'input' }, LONG),
    ).toBeTruthy();
    expect(screen.queryByText('Limpando perfis duplicados...')).toBeNull();
    await enterToken(SETUP_TOKEN);
    expect(await screen.findByText('Nenhum perfil duplicado encontrado.', {}, LONG)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ir para Agendamentos' }).getAttribute('href')).toBe(
      '/agendamentos',
    );
  });
});

describe('doctor-application decision page', () => {
  it('without action and token says the parameters are missing', () => {
    renderAt('/admin/handle-application?action=approve');
    expect(screen.getByText('Parâmetros inválidos. Ação ou token ausente.')).toBeTruthy();
  });

  it("shows the function's refusal of a forged token", async () => {
    renderAt('/admin/handle-application?action=approve&token=x.y');
    expect(await screen.findByText('Token inválido ou expirado.', {}, LONG)).toBeTruthy();
  });

  it('reports a decision the function accepted', async () => {
    const { data } = await platform.admin
      .from('doctor_applications')
      .insert({
        full_name: 'Dra. Beatriz Souza',
        email: 'beatriz@example.com',
        crm: '99887',
        uf: 'SP',
        specialty: 'Pediatria',
      })
      .select('id')
      .single();
    const id = (data as { id: string }).id;
    const token = await signApplicationToken(
      platform.serviceRoleKey,
      id,
      Math.floor(Date.now() / 1000) + 3600,
    );
    renderAt(`/admin/handle-application?action=reject&token=${encodeURIComponent(token)}`);
    expect(await screen.findByText('Solicitação rejeitada.', {}, LONG)).toBeTruthy();
  });
});
