import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import {
  ANA,
  createPatient,
  Device,
  PASSWORD,
  signedInClient,
  startPlatform,
  until,
  ZONE,
} from '../../sync/testing/index.ts';
import type { TestPlatform } from '../../sync/testing/index.ts';
import '@/testing/jsdom-globals.ts';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import type { SyncEngine, SyncUser } from '../../sync/index.ts';
import { SyncContext } from '@/session/sync-provider.tsx';
import { installMatchMedia } from '@/testing/match-media.ts';
import { signedIn, signedOut, WithAuth } from '@/testing/auth-state.tsx';
import type { AuthContextValue } from '@/session/auth-context.ts';
import { SupabaseContext } from '@/session/supabase-context.ts';
import { DoctorProfilePage } from '@/features/booking/doctor-profile-page.tsx';
import { GuidePage } from '@/features/guide/guide-page.tsx';
import { LoginModal } from '@/features/auth/index.ts';
import { BookingPage } from '@/features/booking/booking-page.tsx';
import { ScheduleEditor } from '@/features/schedule-editor/index.ts';
import { CheckoutPage } from '@/features/booking/checkout-page.tsx';
import { toCheckoutState } from '@/domain/booking/checkout-state.ts';
import { SuccessPage } from '@/features/booking/success-page.tsx';
import { GUIDE_QR_SIZE } from '@/domain/guides/qr.ts';

let t: TestPlatform;
const devices: Device[] = [];

beforeAll(async () => {
  installMatchMedia();
  t = await startPlatform();
}, 120_000);

afterEach(async () => {
  act(() => toast.remove());
  cleanup();
  sessionStorage.clear();
  await Promise.all(devices.splice(0).map((d) => d.stop()));
});

afterAll(async () => {
  await t.stop();
});

/** A time in São Paulo on the first weekday among the next three days: on the grid's first page. */
function anaSlot(time: string): { start: string; date: string } {
  const today = Temporal.Now.zonedDateTimeISO(ZONE).toPlainDate();
  let day = today.add({ days: 1 });
  while (day.dayOfWeek > 5) day = day.add({ days: 1 });
  const start = day
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from(time) })
    .toInstant()
    .toString();
  return {
    start,
    date: `${String(day.day).padStart(2, '0')}/${String(day.month).padStart(2, '0')}`,
  };
}

/** What the booking page hands the checkout for Dra. Ana's slot at `time` starting at `start`. */
function anaCheckout(start: string, time: string) {
  return {
    medico_id: ANA,
    doctor_name: 'Dra. Ana Ribeiro',
    specialty: 'Clínica Geral',
    appointment_date: Temporal.Instant.from(start)
      .toZonedDateTimeISO(ZONE)
      .toPlainDate()
      .toString(),
    appointment_time: time,
    horario_inicio: start,
    horario_fim: Temporal.Instant.from(start).add({ minutes: 30 }).toString(),
    price_in_cents: 15000,
  };
}

async function deviceFor(user: { id: string; email: string } | null): Promise<Device> {
  const device = new Device(t);
  devices.push(device);
  if (user) await device.signIn(user.email);
  await device.start(user ? { id: user.id, role: 'paciente' } : null);
  return device;
}

function ShowLocation() {
  const location = useLocation();
  return (
    <p data-testid="location" data-state={JSON.stringify(location.state ?? null)}>
      {location.pathname}
    </p>
  );
}

function renderApp(opts: {
  device?: Device;
  engine: SyncEngine | null;
  user: SyncUser | null;
  auth: AuthContextValue;
  entry: { pathname: string; search?: string; state?: unknown };
}) {
  const router = createMemoryRouter(
    [
      {
        path: '/agendamentos',
        element: <BookingPage scheduleEditor={ScheduleEditor} loginDialog={LoginModal} />,
      },
      { path: '/checkout', element: <CheckoutPage /> },
      { path: '/agendamento-sucesso', element: <SuccessPage /> },
      { path: '/guia/:guideId', element: <GuidePage /> },
      { path: '*', element: <ShowLocation /> },
    ],
    { initialEntries: [opts.entry] },
  );
  render(
    <SupabaseContext.Provider value={opts.device?.client ?? t.client()}>
      <WithAuth value={opts.auth}>
        <SyncContext.Provider value={{ engine: opts.engine, user: opts.user, failed: false }}>
          <RouterProvider router={router} />
          <Toaster />
        </SyncContext.Provider>
      </WithAuth>
    </SupabaseContext.Provider>,
  );
  return router;
}

async function bookOnServer(startIso: string) {
  const other = await createPatient(t);
  const client = await signedInClient(t, other);
  const { error } = await client.rpc('paciente_agendar', {
    p_medico_id: ANA,
    p_horario_inicio: startIso,
    p_mutation_id: randomUUID(),
  });
  if (error) throw error;
}

/** Ana's day column: her card comes first (oldest public fixed doctor). */
const dayColumn = (date: string) =>
  within(
    within(screen.getAllByTestId('doctor-card')[0]!).getByRole('list', {
      name: new RegExp(` ${date}$`),
    }),
  );

describe('booking journey on the local replica', () => {
  it('shows the fixed doctors to a visitor, disables a slot booked elsewhere live, and asks to log in on a pick', async () => {
    const device = await deviceFor(null);
    const router = renderApp({
      engine: device.sync,
      user: null,
      auth: signedOut(),
      entry: { pathname: '/agendamentos' },
    });
    expect(
      await screen.findByRole('link', { name: 'Dra. Ana Ribeiro' }, { timeout: 15_000 }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Dr. Paulo Mendes' })).toBeTruthy();
    expect(screen.getByText('R$ 150,00')).toBeTruthy();
    expect(screen.getByText('R$ 220,00')).toBeTruthy();

    const { start, date } = anaSlot('08:30');
    const slot = () => dayColumn(date).getByRole('button', { name: /^08:30/ });
    await waitFor(() => expect((slot() as HTMLButtonElement).disabled).toBe(false), {
      timeout: 15_000,
    });
    await bookOnServer(start);
    await waitFor(() => expect((slot() as HTMLButtonElement).disabled).toBe(true), {
      timeout: 15_000,
    });
    expect(slot().getAttribute('aria-label')).toBe('08:30 - Horário indisponível');

    fireEvent.click(dayColumn(date).getByRole('button', { name: '09:00' }));
    // The login dialog's code loads on this first pick.
    expect(
      await screen.findByText('Acesse sua conta para continuar', {}, { timeout: 15_000 }),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/agendamentos');
  });

  it('books a slot, confirms with a complete profile, and shows the protocol and the guide', async () => {
    const patient = await createPatient(t);
    const device = await deviceFor(patient);
    await device.sync.awaitInitialSync();
    const user: SyncUser = { id: patient.id, role: 'paciente' };
    const router = renderApp({
      engine: device.sync,
      user,
      auth: signedIn('paciente'),
      entry: { pathname: '/agendamentos' },
    });
    const { date } = anaSlot('08:00');
    const column = await waitFor(() => dayColumn(date), { timeout: 15_000 });
    fireEvent.click(column.getByRole('button', { name: '08:00' }));

    expect(
      await screen.findByRole('heading', { name: 'Confirme seu agendamento' }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/checkout');
    expect(await screen.findByText(/^Paciente \d+$/)).toBeTruthy();
    expect(screen.getByText(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/)).toBeTruthy();
    expect(screen.getByText('10/05/1990')).toBeTruthy();
    expect(screen.getByText('(11) 91234-5678')).toBeTruthy();
    expect(screen.getByText(patient.email)).toBeTruthy();
    expect(screen.getByText('Dra. Ana Ribeiro')).toBeTruthy();
    expect(screen.getByTestId('checkout-total').textContent).toBe('R$ 150,00');
    expect(screen.getByText('O pagamento será confirmado pelo profissional.')).toBeTruthy();
    expect(screen.queryByText('Dados Incompletos')).toBeNull();

    const confirm = screen.getByRole('button', { name: 'Confirmar e Gerar Guia' });
    await waitFor(() => expect((confirm as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(confirm);
    expect(await screen.findByText('Guia gerada!')).toBeTruthy();

    const protocol = await waitFor(
      () => {
        const text = screen.getByTestId('success-protocol').textContent ?? '';
        expect(text).toMatch(/^SJ-\d{4}-/);
        return text;
      },
      { timeout: 15_000 },
    );
    expect(router.state.location.pathname).toBe('/agendamento-sucesso');
    expect(await screen.findByText('Agendamento Concluído!', {}, { timeout: 15_000 })).toBeTruthy();
    expect(
      screen.getByText('Sua consulta foi confirmada com sucesso. A guia já foi enviada ao médico.'),
    ).toBeTruthy();
    expect(screen.getByText('Clínica Geral')).toBeTruthy();
    expect(screen.getByText('08:00 (horário de Brasília)')).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'Ir para Minhas Consultas' }).getAttribute('href'),
    ).toBe('/paciente/dashboard/consultas');

    fireEvent.click(screen.getByRole('link', { name: 'Ver Guia' }));
    expect(await screen.findByRole('heading', { name: 'Guia de Atendimento' })).toBeTruthy();
    expect(screen.getByTestId('guide-protocol').textContent).toBe(protocol);
    const qr = screen.getByTestId('guide-qr');
    expect(qr.getAttribute('data-value')).toMatch(new RegExp(`^SAUDEJA:GUIA:${protocol}:`));
    expect(qr.querySelector('svg')?.getAttribute('height')).toBe(String(GUIDE_QR_SIZE));
    const patientBox = within(screen.getByRole('region', { name: 'Dados do Paciente' }));
    expect(patientBox.getByText(/^Paciente \d+$/)).toBeTruthy();
    expect(patientBox.getByText('10/05/1990')).toBeTruthy();
    const doctorBox = within(screen.getByRole('region', { name: 'Dados do Médico' }));
    expect(doctorBox.getByText('Dra. Ana Ribeiro')).toBeTruthy();
    expect(doctorBox.getByText('CRM 123456/SP')).toBeTruthy();
    const consultation = within(screen.getByRole('region', { name: 'Dados da Consulta' }));
    expect(consultation.getByText('Teleconsulta')).toBeTruthy();
    expect(consultation.getByText('08:00')).toBeTruthy();
    const payment = within(screen.getByRole('region', { name: 'Pagamento' }));
    expect(payment.getByText('R$ 150,00')).toBeTruthy();
    expect(payment.getByText('Aguardando Pagamento')).toBeTruthy();
    // The seeded doctor has no PIX key: the guide says how the payment is arranged instead.
    const howToPay = within(screen.getByRole('region', { name: 'Como pagar' }));
    expect(howToPay.getByText(/O médico entrará em contato pelo WhatsApp ou e-mail/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Baixar PDF' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Adicionar à agenda (.ics)' })).toBeTruthy();
  });

  it('blocks the confirmation of a patient whose profile lacks WhatsApp and offers to complete it', async () => {
    const email = `sem-whats-${randomUUID().slice(0, 8)}@test.example`;
    const created = await t.admin.auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { full_name: 'Bia Sem WhatsApp', cpf: '39053344705', data_nasc: '1988-02-01' },
    });
    if (created.error) throw created.error;
    const patient = { id: created.data.user.id, email };
    const device = await deviceFor(patient);
    const { start } = anaSlot('11:30');
    const booked = await device.sync.book({ medicoId: ANA, horarioInicio: start });
    if (!booked.ok) throw new Error(booked.error);
    const details = anaCheckout(start, '11:30');
    const router = renderApp({
      engine: device.sync,
      user: { id: patient.id, role: 'paciente' },
      auth: signedIn('paciente'),
      entry: { pathname: '/checkout', state: toCheckoutState(details, booked.value.appointmentId) },
    });
    expect(await screen.findByText('Dados Incompletos', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByText('Bia Sem WhatsApp')).toBeTruthy();
    expect(screen.getByText('390.533.447-05')).toBeTruthy();
    expect(screen.getByText('Não informado')).toBeTruthy();
    const confirm = screen.getByRole('button', { name: 'Confirmar e Gerar Guia' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Completar Cadastro' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/paciente/dashboard/dados'));
    expect(router.state.location.state).toEqual({
      from: 'checkout',
      appointmentDetails: { ...details, appointmentId: booked.value.appointmentId },
    });
  });

  it("titles a booking refused for missing data 'Dados incompletos', with the server's message", async () => {
    const patient = await createPatient(t);
    const { error } = await t.admin
      .from('perfis_usuarios')
      .update({ data_nasc: null })
      .eq('id', patient.id);
    if (error) throw error;
    const device = await deviceFor(patient);
    await device.sync.awaitInitialSync();
    device.offline();
    const { start } = anaSlot('09:30');
    const booked = await device.sync.book({ medicoId: ANA, horarioInicio: start });
    if (!booked.ok) throw new Error(booked.error);
    renderApp({
      engine: device.sync,
      user: { id: patient.id, role: 'paciente' },
      auth: signedIn('paciente'),
      entry: {
        pathname: '/checkout',
        state: toCheckoutState(anaCheckout(start, '09:30'), booked.value.appointmentId),
      },
    });
    device.online();
    expect(await screen.findByText('Dados incompletos', {}, { timeout: 15_000 })).toBeTruthy();
    expect(
      screen.getByText(
        'Complete seu cadastro (nome completo, CPF e data de nascimento) antes de agendar.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('Erro no Agendamento')).toBeNull();
  });

  it('keeps an offline booking pending, then sends the patient to their appointments when the slot was taken meanwhile', async () => {
    const patient = await createPatient(t);
    const device = await deviceFor(patient);
    await device.sync.awaitInitialSync();
    device.offline();
    const { start } = anaSlot('09:00');
    const booked = await device.sync.book({ medicoId: ANA, horarioInicio: start });
    if (!booked.ok) throw new Error(booked.error);
    const router = renderApp({
      engine: device.sync,
      user: { id: patient.id, role: 'paciente' },
      auth: signedIn('paciente'),
      entry: {
        pathname: '/checkout',
        state: toCheckoutState(anaCheckout(start, '09:00'), booked.value.appointmentId),
      },
    });
    expect(
      await screen.findByText(
        'Você está offline. Seu agendamento será enviado assim que a conexão voltar.',
      ),
    ).toBeTruthy();

    await bookOnServer(start);
    device.online();
    await until(device.sync.status$, (s) => s.rejectedMutations === 1);
    await waitFor(
      () => expect(router.state.location.pathname).toBe('/paciente/dashboard/consultas'),
      {
        timeout: 15_000,
      },
    );
    expect(screen.queryByText('Erro no Agendamento')).toBeNull();
  });

  it('shows a guide refused after the booking went through and sends the patient to their appointments', async () => {
    const patient = await createPatient(t);
    const device = await deviceFor(patient);
    await device.sync.awaitInitialSync();
    const { start } = anaSlot('10:30');
    // The guide request cannot get through until the appointment is cancelled on the server.
    void device.net.block((url) => url.includes('/rpc/paciente_gerar_guia'));
    const booked = await device.sync.book({ medicoId: ANA, horarioInicio: start });
    if (!booked.ok) throw new Error(booked.error);
    const guide = await device.sync.generateGuide(booked.value.appointmentId);
    if (!guide.ok) throw new Error(guide.error);
    const router = renderApp({
      engine: device.sync,
      user: { id: patient.id, role: 'paciente' },
      auth: signedIn('paciente'),
      entry: {
        pathname: '/agendamento-sucesso',
        state: { appointmentId: booked.value.appointmentId },
      },
    });
    // The booking is on the server (its row in the replica, under the server's id); the guide waits.
    const [onServer] = await until(
      device.sync.appointments$,
      (l) => l[0] !== undefined && l[0].server_modified !== null,
    );
    expect(onServer!.sync.state).toBe('pending');
    expect(await screen.findByText('Agendamento aguardando envio')).toBeTruthy();

    const { error } = await t.admin
      .from('agendamentos')
      .update({ status: 'cancelado' })
      .eq('id', onServer!.id);
    if (error) throw error;
    void device.net.block(null);
    device.sync.resync();

    expect(await screen.findByText('Erro no Agendamento', {}, { timeout: 15_000 })).toBeTruthy();
    expect(
      screen.getByText('Não é possível gerar a guia de um agendamento cancelado ou expirado.'),
    ).toBeTruthy();
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/paciente/dashboard/consultas'),
    );
  });

  it('sends a checkout without a chosen slot back to the booking page', async () => {
    const router = renderApp({
      engine: null,
      user: null,
      auth: signedIn('paciente'),
      entry: { pathname: '/checkout' },
    });
    expect(await screen.findByText('Nenhum horário selecionado.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/agendamentos');
  });

  it('sends a success page without an appointment to the appointments list', async () => {
    const router = renderApp({
      engine: null,
      user: null,
      auth: signedIn('paciente'),
      entry: { pathname: '/agendamento-sucesso', state: { appointmentId: 'nope' } },
    });
    expect(await screen.findByText('Erro de Navegação')).toBeTruthy();
    expect(screen.getByText('Nenhum agendamento encontrado para confirmação.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/paciente/dashboard/consultas');
  });

  it('toasts "Erro ao buscar guia" for a guide the synced replica lacks, then goes to the dashboard', async () => {
    const patient = await createPatient(t);
    const device = await deviceFor(patient);
    const router = renderApp({
      engine: device.sync,
      user: { id: patient.id, role: 'paciente' },
      auth: signedIn('paciente'),
      entry: { pathname: `/guia/${randomUUID()}` },
    });
    const title = await screen.findByText('Erro ao buscar guia', {}, { timeout: 15_000 });
    expect(title.closest('[data-toast]')?.textContent).toContain(
      'Não foi possível encontrar os detalhes da guia solicitada.',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/paciente/dashboard'));
  });

  it('goes back to the page the person came from after a missing guide', async () => {
    const patient = await createPatient(t);
    const device = await deviceFor(patient);
    const router = renderApp({
      engine: device.sync,
      user: { id: patient.id, role: 'paciente' },
      auth: signedIn('paciente'),
      entry: { pathname: '/paciente/dashboard/consultas' },
    });
    await act(() => router.navigate(`/guia/${randomUUID()}`));
    expect(await screen.findByText('Erro ao buscar guia', {}, { timeout: 15_000 })).toBeTruthy();
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/paciente/dashboard/consultas'),
    );
  });

  it('shows a guide kept in the replica while offline, with no error', async () => {
    const patient = await createPatient(t);
    const device = await deviceFor(patient);
    await device.sync.awaitInitialSync();
    const booked = await device.sync.book({ medicoId: ANA, horarioInicio: anaSlot('11:00').start });
    if (!booked.ok) throw new Error(booked.error);
    const guide = await device.sync.generateGuide(booked.value.appointmentId);
    if (!guide.ok) throw new Error(guide.error);
    const [withGuide] = await until(device.sync.appointments$, (l) => Boolean(l[0]?.guia?.id));
    const guideId = withGuide!.guia!.id;
    device.offline();
    renderApp({
      engine: device.sync,
      user: { id: patient.id, role: 'paciente' },
      auth: signedIn('paciente'),
      entry: { pathname: `/guia/${guideId}` },
    });
    expect(await screen.findByTestId('guide-qr', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.queryByText('Erro ao buscar guia')).toBeNull();
  });
});

describe('doctor public profile', () => {
  function renderProfile(engine: SyncEngine, id: string) {
    const router = createMemoryRouter(
      [{ path: '/medico/:id', element: <DoctorProfilePage loginDialog={LoginModal} /> }],
      {
        initialEntries: [`/medico/${id}`],
      },
    );
    render(
      <SupabaseContext.Provider value={t.client()}>
        <WithAuth value={signedOut()}>
          <SyncContext.Provider value={{ engine, user: null, failed: false }}>
            <RouterProvider router={router} />
          </SyncContext.Provider>
        </WithAuth>
      </SupabaseContext.Provider>,
    );
  }

  it('titles the page with the public name and describes the specialty', async () => {
    const device = await deviceFor(null);
    renderProfile(device.sync, ANA);
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Dra. Ana Ribeiro' },
        { timeout: 15_000 },
      ),
    ).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Dra. Ana Ribeiro | Saúde Já'));
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBe(
      'Agende uma consulta com Dra. Ana Ribeiro, especialista em Clínica Geral.',
    );
    expect(screen.getByText('HORA MARCADA')).toBeTruthy();
  });

  it('explains an unknown doctor under "Erro ao Carregar Perfil"', async () => {
    const device = await deviceFor(null);
    renderProfile(device.sync, randomUUID());
    expect(
      await screen.findByText('Erro ao Carregar Perfil', {}, { timeout: 15_000 }),
    ).toBeTruthy();
    expect(
      screen.getByText('Médico não encontrado ou não está disponível publicamente.'),
    ).toBeTruthy();
  });
});

describe('schedule editor on the booking page (edit=1)', () => {
  it('lets the doctor who owns a listed profile edit their weekly blocks; others never see it', async () => {
    const email = `ana-${randomUUID().slice(0, 8)}@test.example`;
    const created = await t.admin.auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { full_name: 'Ana Ribeiro' },
      app_metadata: { role: 'medico' },
    });
    if (created.error) throw created.error;
    const linked = await t.admin
      .from('medicos')
      .update({ user_id: created.data.user.id })
      .eq('id', ANA);
    if (linked.error) throw linked.error;

    const patient = await createPatient(t);
    const patientDevice = await deviceFor(patient);
    renderApp({
      device: patientDevice,
      engine: patientDevice.sync,
      user: { id: patient.id, role: 'paciente' },
      auth: signedIn('paciente'),
      entry: { pathname: '/agendamentos', search: '?edit=1' },
    });
    expect(
      await screen.findByRole('link', { name: 'Dra. Ana Ribeiro' }, { timeout: 15_000 }),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Editar Horários' })).toBeNull();
    expect(screen.queryByText('Seus horários de atendimento')).toBeNull();
    cleanup();

    const device = new Device(t);
    devices.push(device);
    await device.signIn(email);
    await device.start({ id: created.data.user.id, role: 'medico' });
    renderApp({
      device,
      engine: device.sync,
      user: { id: created.data.user.id, role: 'medico' },
      auth: signedIn('medico'),
      entry: { pathname: '/agendamentos', search: '?edit=1' },
    });
    expect(
      await screen.findByRole('button', { name: 'Fechar Editor' }, { timeout: 15_000 }),
    ).toBeTruthy();
    const sunday = within(await screen.findByRole('region', { name: 'Domingo' }));
    fireEvent.click(sunday.getByRole('button', { name: 'Adicionar horário' }));
    fireEvent.change(sunday.getByLabelText('Fim'), { target: { value: '07:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar Agenda' }));
    expect(await screen.findByText('Erro de validação')).toBeTruthy();
    expect(sunday.getByText('Fim > Início')).toBeTruthy();

    fireEvent.change(sunday.getByLabelText('Fim'), { target: { value: '12:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar Agenda' }));
    expect(await screen.findByText('Sua agenda foi atualizada.')).toBeTruthy();
    await device.sync.awaitInSync();
    const { data } = await t.admin
      .from('agenda_medico')
      .select('hora_inicio, hora_fim, intervalo_em_minutos')
      .eq('medico_id', ANA)
      .eq('dia_semana', 0);
    expect(data).toEqual([
      { hora_inicio: '08:00:00', hora_fim: '12:00:00', intervalo_em_minutos: 15 },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Fechar Editor' }));
    expect(await screen.findByRole('button', { name: 'Editar Horários' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Dra. Ana Ribeiro' })).toBeTruthy();
  });
});
