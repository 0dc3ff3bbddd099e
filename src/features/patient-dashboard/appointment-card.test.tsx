// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { MemoryRouter } from 'react-router-dom';
import { installMatchMedia } from '@/testing/match-media.ts';
import type { AppointmentView } from '../../../sync/index.ts';
import { APPOINTMENT_TEXTS, AppointmentCard } from './appointment-card.tsx';

installMatchMedia();

afterEach(() => {
  toast.remove();
  cleanup();
});

const BASE: AppointmentView = {
  id: 'b0000000-0000-4000-8000-000000000001',
  patient_id: 'c0000000-0000-4000-8000-000000000001',
  medico_id: 'a0000000-0000-4000-8000-000000000001',
  servico_id: null,
  appointment_date: '2026-11-23',
  appointment_time: '10:00:00',
  horario_inicio: '2026-11-23T13:00:00.000Z',
  horario_fim: '2026-11-23T13:30:00.000Z',
  price_in_cents: 15000,
  status: 'confirmado',
  pagamento_status: 'pendente',
  source: 'app',
  pagamento_confirmado_em: null,
  pagamento_confirmado_por: null,
  meeting_link: null,
  guia_id: null,
  protocolo: null,
  mutation_id: null,
  sala_paciente_entrou_em: null,
  chamada_iniciada_em: null,
  chamada_encerrada_em: null,
  chamada_duracao_segundos: null,
  chamada_so_audio: false,
  created_at: null,
  server_modified: null,
  sync: { state: 'synced' },
  medico: {
    id: 'a0000000-0000-4000-8000-000000000001',
    name: 'Ana Ribeiro',
    public_name: 'Dra. Ana Ribeiro',
    pix_chave: null,
    pix_cidade: null,
    specialty: 'Clínica Geral',
    crm: '123456',
    uf: 'SP',
    sala_consulta: 'integrada',
  },
  paciente: null,
  servico: null,
  guia: null,
};

const WITH_GUIDE: AppointmentView = {
  ...BASE,
  guia_id: 'd0000000-0000-4000-8000-000000000001',
  guia: {
    id: 'd0000000-0000-4000-8000-000000000001',
    protocolo: 'SJ-2026-ABCD-EFGH',
    pdf_url: null,
  },
};

function renderCard(
  appointment: AppointmentView,
  canJoin = true,
  onDismiss?: (id: string) => void,
) {
  render(
    <MemoryRouter>
      <Toaster />
      <AppointmentCard appointment={appointment} canJoin={canJoin} onDismiss={onDismiss} />
    </MemoryRouter>,
  );
}

describe('AppointmentCard', () => {
  it('shows doctor, Brasília date and time, badge and the protocol still being generated', () => {
    renderCard({ ...BASE, sync: { state: 'pending', kinds: ['generate_guide'] } });
    expect(screen.getByText('Dra. Ana Ribeiro')).toBeTruthy();
    expect(screen.getByText(/Segunda-feira, 23 de novembro de 2026, às 10:00/)).toBeTruthy();
    expect(screen.getByText(/10:00/)).toBeTruthy();
    expect(screen.getByText('Aguardando Pagamento')).toBeTruthy();
    expect(screen.getByText(APPOINTMENT_TEXTS.generating)).toBeTruthy();
    expect(screen.queryByRole('link', { name: APPOINTMENT_TEXTS.viewGuide })).toBeNull();
  });

  it.each([
    [{ pagamento_status: 'pago' }, 'Confirmada e Paga'],
    [{ status: 'atendido', pagamento_status: 'pago' }, 'Realizada'],
    [{ status: 'cancelado' }, 'Cancelada'],
    [{ status: 'expirado' }, 'Expirada'],
  ])('%o reads %s', (change, label) => {
    renderCard({ ...BASE, ...change });
    expect(screen.getByText(label)).toBeTruthy();
  });

  it('links the guide by id and shows its protocol', () => {
    const guia = {
      id: 'd0000000-0000-4000-8000-000000000001',
      protocolo: 'SJ-2026-ABCD-EFGH',
      pdf_url: null,
    };
    renderCard({ ...BASE, guia });
    expect(screen.getByText('SJ-2026-ABCD-EFGH')).toBeTruthy();
    const link = screen.getByRole('link', { name: APPOINTMENT_TEXTS.viewGuide });
    expect(link.getAttribute('href')).toBe(`/guia/${guia.id}`);
  });

  const EXTERNAL_ROOM: AppointmentView = {
    ...WITH_GUIDE,
    medico: { ...WITH_GUIDE.medico!, sala_consulta: 'link_externo' },
  };

  it('enters the built-in room when the doctor uses it (the default)', () => {
    renderCard(WITH_GUIDE);
    const join = screen.getByRole('button', { name: APPOINTMENT_TEXTS.join });
    expect(join.getAttribute('aria-disabled')).toBeNull();
    expect(screen.queryByText(APPOINTMENT_TEXTS.noLinkDescription)).toBeNull();
  });

  it("keeps the doctor's own room focusable without a link, and pressing it says 'Link não disponível'", async () => {
    renderCard(EXTERNAL_ROOM);
    const join = screen.getByRole('button', { name: APPOINTMENT_TEXTS.join });
    expect((join as HTMLButtonElement).disabled).toBe(false);
    expect(join.getAttribute('aria-disabled')).toBe('true');
    join.focus();
    expect(document.activeElement).toBe(join);
    expect(document.getElementById(join.getAttribute('aria-describedby')!)?.textContent).toBe(
      APPOINTMENT_TEXTS.noLinkDescription,
    );
    expect(screen.queryByText('Link não disponível')).toBeNull();
    fireEvent.click(join);
    expect(await screen.findByText('Link não disponível')).toBeTruthy();
    expect(
      screen.getAllByText('O médico ainda não disponibilizou o link para esta consulta.'),
    ).toHaveLength(2);
  });

  it("enables the doctor's own room once a link exists", () => {
    renderCard({ ...EXTERNAL_ROOM, meeting_link: 'https://meet.example.com/sala' });
    const join = screen.getByRole('button', { name: APPOINTMENT_TEXTS.join });
    expect(join.getAttribute('aria-disabled')).toBeNull();
    expect(screen.queryByText(APPOINTMENT_TEXTS.noLinkDescription)).toBeNull();
  });

  it('offers a checkout hold to continue or cancel, not a room, until the guide exists', () => {
    const cancelled: string[] = [];
    render(
      <MemoryRouter>
        <AppointmentCard
          appointment={{ ...BASE, created_at: '2026-11-23T12:00:00.000Z' }}
          canJoin
          onCancel={(a) => cancelled.push(a.id)}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole('button', { name: APPOINTMENT_TEXTS.resume })).toBeTruthy();
    expect(screen.getByText(APPOINTMENT_TEXTS.holdUntil('09:15'))).toBeTruthy();
    expect(screen.queryByRole('button', { name: APPOINTMENT_TEXTS.join })).toBeNull();
    expect(screen.queryByText(APPOINTMENT_TEXTS.generating)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: APPOINTMENT_TEXTS.cancelHold }));
    expect(cancelled).toEqual([BASE.id]);
  });

  it.each(['cancelado', 'expirado'] as const)(
    'a %s booking that never got a guide shows no protocol being generated',
    (status) => {
      renderCard({ ...BASE, status }, false);
      expect(screen.queryByText(APPOINTMENT_TEXTS.generating)).toBeNull();
      expect(screen.queryByText(/Protocolo/)).toBeNull();
    },
  );

  it('offers no room on past appointments', () => {
    renderCard({ ...BASE, status: 'atendido' }, false);
    expect(screen.queryByRole('button', { name: APPOINTMENT_TEXTS.join })).toBeNull();
  });

  it('marks a queued booking as waiting to sync, without a room to enter', () => {
    renderCard({ ...BASE, sync: { state: 'pending', kinds: ['book'] } });
    expect(screen.getByText(APPOINTMENT_TEXTS.pending)).toBeTruthy();
    expect(screen.getByText(APPOINTMENT_TEXTS.pendingNote)).toBeTruthy();
    expect(screen.queryByRole('button', { name: APPOINTMENT_TEXTS.join })).toBeNull();
  });

  it("shows a rejected booking with the server's message and lets it be dismissed", () => {
    const dismissed: string[] = [];
    const rejection = { reason: 'slot_taken', message: 'Este horário já foi reservado.' };
    renderCard(
      { ...BASE, sync: { state: 'rejected', mutationId: 'm-1', rejection } },
      false,
      (id) => dismissed.push(id),
    );
    expect(screen.getByRole('alert').textContent).toContain('Este horário já foi reservado.');
    expect(screen.getByText(APPOINTMENT_TEXTS.rejected)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: APPOINTMENT_TEXTS.dismiss }));
    expect(dismissed).toEqual(['m-1']);
  });
});
