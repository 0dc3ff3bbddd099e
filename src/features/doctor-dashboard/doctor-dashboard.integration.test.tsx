import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import {
  createDoctor,
  createPatient,
  Device,
  signedInClient,
  slot,
  startPlatform,
  ZONE,
  type DoctorFixture,
} from '../../../sync/testing/index.ts';
import { runScheduledJobs, schedulerClient } from '../../../scripts/scheduler.ts';
import type { TestPlatform } from '../../../sync/testing/index.ts';
import '@/testing/jsdom-globals.ts';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SyncContext } from '@/session/sync-provider.tsx';
import { installMatchMedia } from '@/testing/match-media.ts';
import { signedIn, WithAuth } from '@/testing/auth-state.tsx';
import { SupabaseContext } from '@/session/supabase-context.ts';
import { DoctorDashboardPage } from './doctor-dashboard-page.tsx';

/** These cases never open 'Agenda' (the app composes the real editor in). */
const noEditor = () => null;

let t: TestPlatform;
const devices: Device[] = [];

beforeAll(async () => {
  installMatchMedia();
  t = await startPlatform();
}, 120_000);

afterEach(async () => {
  act(() => toast.remove());
  cleanup();
  await Promise.all(devices.splice(0).map((d) => d.stop()));
});

afterAll(async () => {
  await t.stop();
});

const LONG = { timeout: 15_000 };

async function doctorDevice(doctor: DoctorFixture): Promise<Device> {
  const device = new Device(t);
  devices.push(device);
  const id = await device.signIn(doctor.email);
  await device.start({ id, role: 'medico' });
  await device.sync.awaitInitialSync();
  return device;
}

function renderDoctor(device: Device, path = '/medico/dashboard/consultas') {
  const router = createMemoryRouter(
    [{ path: '/medico/dashboard/*', element: <DoctorDashboardPage scheduleEditor={noEditor} /> }],
    { initialEntries: [path] },
  );
  render(
    <SupabaseContext.Provider value={device.client}>
      <WithAuth value={signedIn('medico')}>
        <SyncContext.Provider
          value={{ engine: device.sync, user: { id: 'x', role: 'medico' }, failed: false }}
        >
          <RouterProvider router={router} />
          <Toaster />
        </SyncContext.Provider>
      </WithAuth>
    </SupabaseContext.Provider>,
  );
}

/** Books through the real RPC as the patient; returns the appointment id. */
async function book(patient: { email: string }, doctor: DoctorFixture, start: string) {
  const client = await signedInClient(t, patient);
  const { data, error } = await client
    .rpc('paciente_agendar', {
      p_medico_id: doctor.medicoId,
      p_horario_inicio: start,
      p_mutation_id: randomUUID(),
    })
    .single<{ id: string }>();
  if (error) throw error;
  return { id: data.id, client };
}

async function guideFor(client: Awaited<ReturnType<typeof book>>['client'], id: string) {
  const { data, error } = await client
    .rpc('paciente_gerar_guia', { p_agendamento_id: id, p_mutation_id: randomUUID() })
    .single<{ id: string; protocolo: string }>();
  if (error) throw error;
  return data;
}

/** An appointment stored as-is (SQL), for days and states the booking RPC would refuse. */
async function insertAppointment(opts: {
  doctor: DoctorFixture;
  patientId: string;
  start: Temporal.Instant;
  status?: string;
  pagamento?: string;
  link?: string | null;
}): Promise<string> {
  const { rows } = await t.platform.ctx.db.query<{ id: string }>(
    `insert into public.agendamentos (patient_id, medico_id, servico_id, appointment_date,
       appointment_time, horario_inicio, horario_fim, price_in_cents, status, pagamento_status,
       meeting_link)
     values ($1, $2, (select id from public.servicos where nome = 'Teleconsulta'),
       ($3::timestamptz at time zone 'America/Sao_Paulo')::date,
       ($3::timestamptz at time zone 'America/Sao_Paulo')::time,
       $3::timestamptz, $3::timestamptz + interval '30 minutes', 15000, $4, $5, $6)
     returning id`,
    [
      opts.patientId,
      opts.doctor.medicoId,
      opts.start.toString(),
      opts.status ?? 'confirmado',
      opts.pagamento ?? 'pendente',
      opts.link ?? null,
    ],
  );
  return rows[0]!.id;
}

/** The visible tab's cards (Ark keeps a visited tab's panel mounted, hidden). */
const panel = () => within(screen.getByRole('tabpanel'));

const card = (id: string) =>
  screen.getAllByTestId('doctor-appointment').find((el) => el.dataset.appointmentId === id);

async function findCard(id: string): Promise<HTMLElement> {
  return waitFor(() => {
    const el = card(id);
    if (!el) throw new Error(`no card ${id}`);
    return el;
  }, LONG);
}

async function serverRow(id: string) {
  const { data, error } = await t.admin
    .from('agendamentos')
    .select('status, pagamento_status, meeting_link')
    .eq('id', id)
    .single<{ status: string; pagamento_status: string; meeting_link: string | null }>();
  if (error) throw error;
  return data;
}

describe('doctor dashboard: consultas', () => {
  it('lists upcoming and history 10 per page with separate counters, patient data with the CPF masked, the guide link, and accent-insensitive search', async () => {
    const doctor = await createDoctor(t);
    const joao = await createPatient(t);
    await t.admin.from('perfis_usuarios').update({ full_name: 'João Conceição' }).eq('id', joao.id);
    const { id: first, client } = await book(joao, doctor, slot(0));
    const guide = await guideFor(client, first);
    const other = await createPatient(t);
    // One patient may hold only two open unpaid bookings per doctor (src/domain/rules/limits.ts).
    for (let n = 1; n <= 11; n++) await book(await createPatient(t), doctor, slot(n));
    const past = Temporal.Now.instant().subtract({ hours: 48 });
    for (let n = 0; n < 12; n++) {
      await insertAppointment({
        doctor,
        patientId: other.id,
        start: past.subtract({ hours: n }),
        status: n % 2 ? 'atendido' : 'cancelado',
        pagamento: n % 2 ? 'pago' : 'cancelado',
      });
    }
    const device = await doctorDevice(doctor);
    renderDoctor(device);

    const upcomingTab = await screen.findByRole('tab', { name: 'Próximas (12)' }, LONG);
    expect(upcomingTab.getAttribute('aria-selected')).toBe('true');
    expect(panel().getAllByTestId('doctor-appointment')).toHaveLength(10);
    expect(panel().getByText('Página 1 de 2')).toBeTruthy();
    // Soonest first: João's appointment leads, with his data and the guide.
    const joaoCard = panel().getAllByTestId('doctor-appointment')[0]!;
    expect(joaoCard.dataset.appointmentId).toBe(first);
    const j = within(joaoCard);
    expect(j.getByRole('heading', { name: 'João Conceição' })).toBeTruthy();
    expect(j.getByText(joao.email)).toBeTruthy();
    expect(j.getByText(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/)).toBeTruthy();
    expect(j.getByText('10/05/1990')).toBeTruthy();
    expect(j.getByText('(11) 91234-5678')).toBeTruthy();
    expect(j.getByText('Agendado')).toBeTruthy();
    expect(j.getByText(guide.protocolo)).toBeTruthy();
    expect(j.getByRole('link', { name: 'Ver guia' }).getAttribute('href')).toBe(
      `/guia/${guide.id}`,
    );

    fireEvent.click(panel().getByRole('button', { name: 'Próxima' }));
    expect(panel().getByText('Página 2 de 2')).toBeTruthy();
    expect(panel().getAllByTestId('doctor-appointment')).toHaveLength(2);

    // History keeps its own counter, starting at page 1.
    fireEvent.click(screen.getByRole('tab', { name: 'Histórico (12)' }));
    await waitFor(() => expect(panel().getByText('Página 1 de 2')).toBeTruthy());
    const badges = panel()
      .getAllByTestId('status-badge')
      .map((b) => b.textContent);
    expect(new Set(badges)).toEqual(new Set(['Atendido', 'Cancelado']));
    fireEvent.click(screen.getByRole('tab', { name: 'Próximas (12)' }));
    await waitFor(() => expect(panel().getByText('Página 2 de 2')).toBeTruthy());

    const search = screen.getByLabelText('Buscar por paciente ou protocolo');
    fireEvent.change(search, { target: { value: 'joao conceicao' } });
    await screen.findByRole('tab', { name: 'Próximas (1)' });
    expect(
      panel()
        .getAllByTestId('doctor-appointment')
        .map((c) => c.dataset.appointmentId),
    ).toEqual([first]);
    fireEvent.change(search, { target: { value: guide.protocolo.toLowerCase().slice(-6) } });
    await screen.findByRole('tab', { name: 'Próximas (1)' });
    fireEvent.change(search, { target: { value: 'ninguém' } });
    // Both tabs' lists say so (the visited history stays mounted behind its tab).
    await screen.findByRole('tab', { name: 'Próximas (0)' });
    expect(screen.getAllByText('Nenhuma consulta encontrada para esta busca.')).toHaveLength(2);
  });

  it('confirms payment, checks in (the server e-mails the patient once), saves a validated link and cancels through the dialog — each marked pending at once, then toasted', async () => {
    const doctor = await createDoctor(t);
    const patient = await createPatient(t);
    const { id } = await book(patient, doctor, slot(2));
    const { id: toCancel } = await book(patient, doctor, slot(4));
    const device = await doctorDevice(doctor);
    renderDoctor(device);
    const c = within(await findCard(id));
    expect(c.queryByRole('button', { name: 'Fazer Check-in' })).toBeNull();
    // The built-in room (the default): the card leads into it and has no link to manage.
    expect(c.getByRole('link', { name: 'Entrar na sala' }).getAttribute('href')).toBe(
      `/consulta/${id}`,
    );
    expect(c.queryByRole('button', { name: 'Adicionar link' })).toBeNull();
    expect(c.queryByText('Nenhum link salvo')).toBeNull();

    device.offline();
    fireEvent.click(c.getByRole('button', { name: 'Confirmar Pagamento' }));
    await waitFor(() => expect(c.getByTestId('pending-marker')).toBeTruthy());
    expect(c.getByText('Confirmado')).toBeTruthy();
    device.online();
    expect(await screen.findByText('Pagamento Confirmado!', undefined, LONG)).toBeTruthy();
    await waitFor(() => expect(card(id)?.dataset.sync).toBe('synced'), LONG);
    expect(await serverRow(id)).toMatchObject({ pagamento_status: 'pago' });

    fireEvent.click(c.getByRole('button', { name: 'Fazer Check-in' }));
    expect(await screen.findByText('Check-in Realizado!', undefined, LONG)).toBeTruthy();
    await waitFor(async () => expect((await serverRow(id)).status).toBe('atendido'), LONG);
    // The server tells the patient, at the scheduler's next run: once, whatever this device does.
    const admin = schedulerClient(t.url, t.serviceRoleKey);
    expect(await runScheduledJobs(admin)).toEqual([]);
    expect(await runScheduledJobs(admin)).toEqual([]);
    const res = await fetch(`${t.url}/mailbox/api?to=${encodeURIComponent(patient.email)}`, {
      headers: { apikey: t.serviceRoleKey },
    });
    const mails = (await res.json()) as { subject: string }[];
    expect(mails.filter((m) => m.subject === 'Sua teleconsulta foi concluída')).toHaveLength(1);

    // The doctor chooses their own link in perfil: the cards offer to save one instead.
    expect((await device.sync.updateDoctorProfile({ sala_consulta: 'link_externo' })).ok).toBe(
      true,
    );
    const other = within(await findCard(toCancel));
    expect(await other.findByText('Nenhum link salvo', undefined, LONG)).toBeTruthy();
    expect(other.queryByRole('link', { name: 'Entrar na sala' })).toBeNull();
    fireEvent.click(other.getByRole('button', { name: 'Adicionar link' }));
    const field = other.getByRole('textbox', { name: 'Link da consulta' });
    fireEvent.change(field, { target: { value: 'http://meet.example.com/sala' } });
    fireEvent.click(other.getByRole('button', { name: 'Salvar link' }));
    expect(await other.findByText('Informe um link válido que comece com https://')).toBeTruthy();
    fireEvent.change(field, { target: { value: 'https://meet.example.com/sala-1' } });
    fireEvent.click(other.getByRole('button', { name: 'Salvar link' }));
    expect(await screen.findByText('Link da consulta salvo!', undefined, LONG)).toBeTruthy();
    expect((await serverRow(toCancel)).meeting_link).toBe('https://meet.example.com/sala-1');

    fireEvent.click(other.getByRole('button', { name: 'Cancelar consulta' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Cancelar esta consulta?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await serverRow(toCancel)).status).toBe('confirmado');
    fireEvent.click(other.getByRole('button', { name: 'Cancelar consulta' }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sim, cancelar' }),
    );
    expect(await screen.findByText('Sucesso', undefined, LONG)).toBeTruthy();
    expect(screen.getByText('Agendamento cancelado com sucesso.')).toBeTruthy();
    expect((await serverRow(toCancel)).status).toBe('cancelado');
    await screen.findByRole('tab', { name: 'Histórico (2)' });
  });

  it("undoes an action the server refuses and shows the server's message; a patient's booking arrives live with the product-rules toast", async () => {
    const doctor = await createDoctor(t);
    const patient = await createPatient(t);
    const { id } = await book(patient, doctor, slot(6));
    const device = await doctorDevice(doctor);
    renderDoctor(device);
    const c = within(await findCard(id));

    device.offline();
    fireEvent.click(c.getByRole('button', { name: 'Confirmar Pagamento' }));
    await waitFor(() => expect(c.getByTestId('pending-marker')).toBeTruthy());
    // Meanwhile, from another session, the appointment is cancelled.
    const elsewhere = await signedInClient(t, doctor);
    const cancelled = await elsewhere.rpc('medico_excluir_agendamento', {
      p_agendamento_id: id,
      p_mutation_id: randomUUID(),
    });
    expect(cancelled.error).toBeNull();
    device.online();

    expect(await screen.findByText('Falha ao Confirmar Pagamento', undefined, LONG)).toBeTruthy();
    const note = await waitFor(() => {
      const el = card(id);
      const found = el && within(el).queryByTestId('rejected-note');
      if (!found) throw new Error('no rejection shown');
      return found;
    }, LONG);
    expect(note.textContent?.trim().length).toBeGreaterThan(0);
    // The server's state, pulled at once after the refusal: cancelled, so in the history,
    // with the refusal still explained there.
    await screen.findByRole('tab', { name: 'Histórico (1)' }, LONG);
    fireEvent.click(screen.getByRole('tab', { name: 'Histórico (1)' }));
    const moved = within(await findCard(id));
    expect(moved.getByText('Cancelado')).toBeTruthy();
    expect(moved.getByTestId('rejected-note').textContent).toBe(note.textContent);
    expect((await serverRow(id)).pagamento_status).not.toBe('pago');
    fireEvent.click(moved.getByRole('button', { name: 'Dispensar' }));
    await waitFor(() => expect(moved.queryByTestId('rejected-note')).toBeNull());
    fireEvent.click(screen.getByRole('tab', { name: 'Próximas (0)' }));

    act(() => toast.remove());
    const { id: fresh } = await book(await createPatient(t), doctor, slot(8));
    expect(
      await screen.findByText('Agenda atualizada em tempo real!', undefined, LONG),
    ).toBeTruthy();
    expect(screen.getByText('Um horário foi agendado ou cancelado.')).toBeTruthy();
    await findCard(fresh);
    await screen.findByRole('tab', { name: 'Próximas (1)' });
  });
});

describe('doctor dashboard: hoje and guides', () => {
  it("shows today's São Paulo appointments in time order with payment, protocol and room, the next one highlighted — offline too", async () => {
    const doctor = await createDoctor(t);
    // This doctor holds consultations on their own link (perfil), so hoje shows the saved link.
    const chosen = await t.admin
      .from('medicos')
      .update({ sala_consulta: 'link_externo' })
      .eq('id', doctor.medicoId);
    expect(chosen.error).toBeNull();
    const patient = await createPatient(t);
    const today = Temporal.Now.zonedDateTimeISO(ZONE).toPlainDate();
    const at = (time: string) =>
      today
        .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from(time) })
        .toInstant();
    const late = await insertAppointment({ doctor, patientId: patient.id, start: at('23:00') });
    const early = await insertAppointment({
      doctor,
      patientId: patient.id,
      start: at('00:00'),
      status: 'atendido',
      pagamento: 'pago',
    });
    const linked = await insertAppointment({
      doctor,
      patientId: patient.id,
      start: at('23:30'),
      pagamento: 'pago',
      link: 'https://meet.example.com/hoje',
    });
    await insertAppointment({
      doctor,
      patientId: patient.id,
      start: at('12:00'),
      status: 'cancelado',
      pagamento: 'cancelado',
    });
    await insertAppointment({
      doctor,
      patientId: patient.id,
      start: at('00:00').add({ hours: 24 }),
    });
    const device = await doctorDevice(doctor);
    device.offline();
    renderDoctor(device, '/medico/dashboard/hoje');

    const rows = await waitFor(() => {
      const found = screen.getAllByTestId('today-appointment');
      if (found.length !== 3) throw new Error(`${found.length} rows`);
      return found;
    }, LONG);
    expect(rows.map((r) => r.dataset.appointmentId)).toEqual([early, late, linked]);
    expect(rows.map((r) => r.textContent?.slice(0, 5))).toEqual(['00:00', '23:00', '23:30']);
    expect(within(rows[0]!).getByText('Atendido')).toBeTruthy();
    expect(within(rows[1]!).getByText('Pagamento pendente')).toBeTruthy();
    expect(within(rows[2]!).getByText('Pago')).toBeTruthy();
    // The next one: the first not attended whose time has not passed (23:00 unless it is later).
    const now = Temporal.Now.zonedDateTimeISO(ZONE).toPlainTime();
    const expectedNext = Temporal.PlainTime.compare(now, '23:30') < 0 ? late : linked;
    expect(rows.filter((r) => r.dataset.next).map((r) => r.dataset.appointmentId)).toEqual([
      expectedNext,
    ]);
    const join = within(rows[2]!).getByRole('link', { name: 'Entrar na sala' });
    expect(join.getAttribute('href')).toBe('https://meet.example.com/hoje');
    expect(within(rows[1]!).queryByRole('link', { name: 'Entrar na sala' })).toBeNull();
    expect(within(rows[1]!).getByText('Sem link da sala')).toBeTruthy();
    expect(within(rows[0]!).queryByText('Sem link da sala')).toBeNull();
  });
});
