// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Toaster } from 'react-hot-toast';
import toast from 'react-hot-toast';
import { Temporal } from 'temporal-polyfill';
import { appConfig } from '@/lib/config.ts';
import { installMatchMedia } from '@/testing/match-media.ts';
import { COMING_SOON_MESSAGE, Footer } from './footer.tsx';

beforeAll(installMatchMedia);

afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

function renderFooter() {
  render(
    <>
      <Footer />
      <Toaster />
    </>,
  );
}

describe('Footer', () => {
  it('names the company, its CNPJ, the support contacts and the care channel', () => {
    renderFooter();
    expect(screen.getAllByText(appConfig.companyName, { exact: false }).length).toBeGreaterThan(0);
    expect(screen.getByText(`CNPJ: ${appConfig.cnpj}`)).toBeTruthy();
    expect(screen.getByRole('link', { name: appConfig.supportEmail }).getAttribute('href')).toBe(
      `mailto:${appConfig.supportEmail}`,
    );
    expect(screen.getByRole('link', { name: appConfig.supportWhatsapp })).toBeTruthy();
    expect(
      screen.getByText('Atendimento por plataforma de videochamada regulamentada.'),
    ).toBeTruthy();
  });

  it('carries the current year in the copyright line', () => {
    renderFooter();
    const year = Temporal.Now.plainDateISO('America/Sao_Paulo').year;
    expect(screen.getByText(new RegExp(`© ${year}`))).toBeTruthy();
  });

  it.each([
    'Termos de Serviço',
    'Política de Privacidade (LGPD)',
    'Política de Reembolso',
    'Consentimento para Telemedicina',
  ])("'%s' only announces that the page is coming soon", async (label) => {
    renderFooter();
    fireEvent.click(screen.getByRole('button', { name: label }));
    expect(await screen.findByText(COMING_SOON_MESSAGE)).toBeTruthy();
    expect(COMING_SOON_MESSAGE).toBe(
      'Em breve! Esta página está em desenvolvimento e será lançada em breve.',
    );
  });

  it('keeps a single toast on screen when several legal links are pressed', async () => {
    renderFooter();
    fireEvent.click(screen.getByRole('button', { name: 'Termos de Serviço' }));
    fireEvent.click(screen.getByRole('button', { name: 'Política de Reembolso' }));
    fireEvent.click(screen.getByRole('button', { name: 'Política de Privacidade (LGPD)' }));
    await screen.findByText(COMING_SOON_MESSAGE);
    expect(screen.getAllByText(COMING_SOON_MESSAGE)).toHaveLength(1);
  });
});
