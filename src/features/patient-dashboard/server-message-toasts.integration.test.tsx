import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createDoctor,
  createPatient,
  Device,
  slot,
  startPlatform,
  until,
} from '../../../sync/testing/index.ts';
import type { TestPlatform } from '../../../sync/testing/index.ts';
import type { SyncUser } from '../../../sync/index.ts';
import '@/testing/jsdom-globals.ts';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { MemoryRouter } from 'react-router-dom';
import { ERROR_MESSAGES } from '@/domain/errors/messages.ts';
import { AppointmentsTab } from './appointments-tab.tsx';
import { signedIn, WithAuth } from '@/testing/auth-state.tsx';
import { installMatchMedia } from '@/testing/match-media.ts';
import {
  SYNC_ERROR_TITLES,
  useSyncErrorToast,
  type FetchedSource,
} from '@/session/sync-error-toast.ts';
import { SyncContext } from '@/session/sync-provider.tsx';

/**
 * docs/product-rules.md §8 "Appointments": a table the replica cannot fetch is told in a toast,
 * where the screen that needs it is open; offline with the rows kept, nothing is said.
 */
let t: TestPlatform;
const devices: Device[] = [];
let lastUser: SyncUser | null = null;

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

async function syncedPatient(): Promise<Device> {
  const patient = await createPatient(t);
  lastUser = { id: patient.id, role: 'paciente' };
  const device = new Device(t);
  devices.push(device);
  await device.signIn(patient.email);
  await device.start({ id: patient.id, role: 'paciente' });
  await device.sync.awaitInitialSync();
  return device;
}

/** Fails the next fetches of `table` like a dead connection, and asks the replica again. */
async function failFetchesOf(device: Device, table: string): Promise<void> {
  const attempted = device.net.block((url) => url.includes(`/rest/v1/${table}?`));
  device.sync.resync();
  await attempted;
  await until(device.sync.status$, (s) => s.errors.some((e) => e.source === table));
}

function renderAppointments(device: Device) {
  render(
    <WithAuth value={signedIn('paciente')}>
      <SyncContext.Provider value={{ engine: device.sync, user: lastUser, failed: false }}>
        <MemoryRouter>
          <AppointmentsTab />
        </MemoryRouter>
        <Toaster />
      </SyncContext.Provider>
    </WithAuth>,
  );
}

function Probe({ source, device }: { source: FetchedSource; device: Device }) {
  useSyncErrorToast(device.sync, source);
  return null;
}

describe('toasts for a table the replica cannot fetch', () => {
  it("says 'Erro ao buscar consultas' on the patient's appointments", async () => {
    const device = await syncedPatient();
    renderAppointments(device);
    expect(screen.queryByText(SYNC_ERROR_TITLES.agendamentos)).toBeNull();
    await failFetchesOf(device, 'agendamentos');
    expect(
      await screen.findByText(SYNC_ERROR_TITLES.agendamentos, {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByText(ERROR_MESSAGES.serverUnavailable)).toBeTruthy();
    expect(SYNC_ERROR_TITLES.agendamentos).toBe('Erro ao buscar consultas');
  });

  it.each([
    ['agenda_ocupada', 'Erro ao buscar horários'],
    ['agenda_medico', 'Erro ao buscar agenda'],
  ] as const)('says the title of %s', async (source, title) => {
    const device = await syncedPatient();
    render(
      <>
        <Probe source={source} device={device} />
        <Toaster />
      </>,
    );
    await failFetchesOf(device, source);
    expect(await screen.findByText(title, {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('says nothing offline, where the replica keeps the rows', async () => {
    const device = await syncedPatient();
    render(
      <>
        <Probe source="agendamentos" device={device} />
        <Toaster />
      </>,
    );
    device.offline();
    device.sync.resync();
    await until(device.sync.status$, (s) => !s.online);
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(screen.queryByText(SYNC_ERROR_TITLES.agendamentos)).toBeNull();
  });
});

describe("the patient's own cancellation (docs/product-rules.md §8 'Appointments')", () => {
  it("says 'Sucesso' with the server's message", async () => {
    const doctor = await createDoctor(t);
    const device = await syncedPatient();
    const booked = await device.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(96) });
    if (!booked.ok) throw new Error(booked.error);
    const guide = await device.sync.generateGuide(booked.value.appointmentId);
    if (!guide.ok) throw new Error(guide.error);
    await until(device.sync.appointments$, (l) => l[0]?.sync.state === 'synced');
    renderAppointments(device);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancelar consulta' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirmar cancelamento' }));
    expect(await screen.findByText('Sucesso', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('Agendamento cancelado com sucesso.')).toBeTruthy();
    expect(screen.queryByText('Erro ao cancelar')).toBeNull();
  });
});
