// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Temporal } from 'temporal-polyfill';
import { appConfig } from '@/lib/config.ts';
import { installMatchMedia } from '@/testing/match-media.ts';
import { MemoryRouter } from 'react-router-dom';
import { Footer } from './footer.tsx';

beforeAll(installMatchMedia);

afterEach(cleanup);

function renderFooter() {
  render(
    <MemoryRouter>
      <Footer />
    </MemoryRouter>,
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
    ['Termos de Serviço', '/termos'],
    ['Política de Privacidade (LGPD)', '/privacidade'],
    ['Política de Reembolso', '/reembolso'],
    ['Consentimento para Telemedicina', '/consentimento'],
  ])("'%s' links to its page %s", (label, path) => {
    renderFooter();
    expect(screen.getByRole('link', { name: label }).getAttribute('href')).toBe(path);
  });
});
