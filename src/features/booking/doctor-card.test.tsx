// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { fallbackDoctor, type ListedDoctor } from '@/domain/doctors/fixed-doctors.ts';
import { CARD_TEXTS, DoctorCard } from './doctor-card.tsx';

afterEach(cleanup);

const ANA: ListedDoctor = {
  id: 'a0000000-0000-4000-8000-000000000001',
  name: 'Ana Ribeiro',
  public_name: 'Dra. Ana Ribeiro',
  specialty: 'Clínica Geral',
  crm: '123456',
  uf: 'SP',
  bio: 'Médica de família há 12 anos.',
  price_in_cents: 15050,
  image_url: null,
  doctoralia_reviews_url: null,
  is_public: true,
  is_active: true,
  created_at: '2026-01-01T00:00:00Z',
  is_fallback: false,
};

function renderCard(doctor: ListedDoctor) {
  render(
    <MemoryRouter>
      <DoctorCard doctor={doctor}>
        <p>grade</p>
      </DoctorCard>
    </MemoryRouter>,
  );
}

describe('DoctorCard', () => {
  it('shows who the doctor is, links the public name to the profile and prices in reais', () => {
    renderCard(ANA);
    const link = screen.getByRole('link', { name: 'Dra. Ana Ribeiro' });
    expect(link.getAttribute('href')).toBe(`/medico/${ANA.id}`);
    expect(screen.getByText('Clínica Geral')).toBeTruthy();
    expect(screen.getByText('CRM 123456/SP')).toBeTruthy();
    expect(screen.getByText(ANA.bio!)).toBeTruthy();
    expect(screen.getByText('5.0')).toBeTruthy();
    expect(screen.getByText('R$ 150,50')).toBeTruthy();
    expect(screen.getByText(CARD_TEXTS.teleconsulta)).toBeTruthy();
    for (const line of [CARD_TEXTS.excellence, CARD_TEXTS.telemedicine, CARD_TEXTS.loyal]) {
      expect(screen.getByText(line)).toBeTruthy();
    }
    expect(screen.getByText(CARD_TEXTS.loyalTooltip)).toBeTruthy();
    expect(screen.getByText('grade')).toBeTruthy();
  });

  it('shows the photo when there is one, else an icon; the reviews link only when set', () => {
    renderCard(ANA);
    expect(screen.queryByRole('img', { name: 'Foto de Dra. Ana Ribeiro' })).toBeNull();
    expect(screen.getByRole('img', { name: 'Foto de Dra. Ana Ribeiro indisponível' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: CARD_TEXTS.reviews })).toBeNull();
    cleanup();
    renderCard({
      ...ANA,
      image_url: 'https://example.com/ana.webp',
      doctoralia_reviews_url: 'https://www.doctoralia.com.br/ana',
    });
    const photo = screen.getByRole('img', { name: 'Foto de Dra. Ana Ribeiro' });
    expect(photo.getAttribute('src')).toBe('https://example.com/ana.webp');
    expect(screen.getByRole('link', { name: CARD_TEXTS.reviews }).getAttribute('href')).toBe(
      'https://www.doctoralia.com.br/ana',
    );
  });

  it('falls back to the registered name when there is no public name', () => {
    renderCard({ ...ANA, public_name: null });
    expect(screen.getByRole('link', { name: 'Ana Ribeiro' })).toBeTruthy();
  });

  it('shows the placeholder of a fixed doctor who is not public, without a profile link', () => {
    renderCard(fallbackDoctor('Dr. Paulo Mendes'));
    expect(screen.getByRole('heading', { name: 'Dr. Paulo Mendes' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Dr. Paulo Mendes' })).toBeNull();
    expect(screen.getByText('Indisponível no momento')).toBeTruthy();
    expect(screen.getByText('CRM 000000/BR')).toBeTruthy();
    expect(screen.getByText('R$ 0,00')).toBeTruthy();
  });
});
