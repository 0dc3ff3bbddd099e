import { expect, it } from 'vitest';
import { createDoctor, device, Device, platformForFile, until } from '../../sync/testing/index.ts';
import type { TableName } from '../../sync/index.ts';
import '@/testing/jsdom-globals.ts';
import { fireEvent, render, screen } from '@testing-library/react';
import { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ERROR_MESSAGES } from '@/domain/errors/messages.ts';
import { SupabaseContext } from '@/session/supabase-context.ts';
import { SyncContext } from '@/session/sync-provider.tsx';
import { signedIn, WithAuth } from '@/testing/auth-state.tsx';
import { screenHooks } from '@/testing/screen-hooks.ts';
import { DoctorDashboardPage } from '@/features/doctor-dashboard/doctor-dashboard-page.tsx';
import { ScheduleEditor } from '@/features/schedule-editor/index.ts';
import { LOAD_ERROR_TEXTS } from '@/ui/load-error.tsx';
import { EDITOR_TEXTS } from '@/features/schedule-editor/schedule-editor.tsx';

/**
 * docs/product-rules.md §8 "Generic": the doctor's own profile or schedule that cannot be
 * loaded for real — never offline with rows kept — says so, with 'Tentar novamente'.
 */
const t = platformForFile();
const LONG = { timeout: 15_000 };
screenHooks();

function renderDashboard(phone: Device, section: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/medico/dashboard/*',
        element: <DoctorDashboardPage scheduleEditor={ScheduleEditor} />,
      },
    ],
    { initialEntries: [`/medico/dashboard/${section}`] },
  );
  render(
    <SupabaseContext.Provider value={phone.client}>
      <WithAuth value={signedIn('medico')}>
        <SyncContext.Provider
          value={{ engine: phone.sync, user: { id: 'x', role: 'medico' }, failed: false }}
        >
          <RouterProvider router={router} />
          <Toaster />
        </SyncContext.Provider>
      </WithAuth>
    </SupabaseContext.Provider>,
  );
}

/** A doctor's first sign-in on a new device, whose fetches of `table` fail like a dead link. */
async function firstDeviceFailing(table: TableName): Promise<Device> {
  const doctor = await createDoctor(t);
  const phone = new Device(t);
  const id = await phone.signIn(doctor.email);
  const attempted = phone.net.block((url) => url.includes(`/rest/v1/${table}?`));
  await phone.start({ id, role: 'medico' });
  await attempted;
  await until(phone.sync.status$, (s) => s.errors.some((e) => e.source === table));
  return phone;
}

it("a doctor's record that cannot be fetched: 'Erro ao carregar seu perfil', then 'Tentar novamente' loads it", async () => {
  const phone = await firstDeviceFailing('medicos');
  renderDashboard(phone, 'consultas');
  expect(
    await screen.findByRole('heading', { level: 1, name: LOAD_ERROR_TEXTS.profile }, LONG),
  ).toBeTruthy();
  expect(screen.getByText(LOAD_ERROR_TEXTS.profileFetch)).toBeTruthy();
  expect(screen.getByText(ERROR_MESSAGES.serverUnavailable)).toBeTruthy();

  void phone.net.block(null);
  fireEvent.click(screen.getByRole('button', { name: LOAD_ERROR_TEXTS.retry }));
  expect(await screen.findByTestId('doctor-name', {}, LONG)).toBeTruthy();
  expect(screen.queryByText(LOAD_ERROR_TEXTS.profile)).toBeNull();
});

it("a schedule that cannot be fetched: 'Erro ao carregar sua agenda', then 'Tentar novamente' opens the editor", async () => {
  const phone = await firstDeviceFailing('agenda_medico');
  renderDashboard(phone, 'agenda');
  expect(await screen.findByText(LOAD_ERROR_TEXTS.schedule, {}, LONG)).toBeTruthy();
  expect(screen.getByRole('alert').textContent).toContain(ERROR_MESSAGES.serverUnavailable);

  void phone.net.block(null);
  fireEvent.click(screen.getByRole('button', { name: LOAD_ERROR_TEXTS.retry }));
  expect(await screen.findByText(EDITOR_TEXTS.title, {}, LONG)).toBeTruthy();
  expect(screen.queryByText(LOAD_ERROR_TEXTS.schedule)).toBeNull();
});

it('offline with the profile and schedule in the replica is no error', async () => {
  const phone = await device(t, { role: 'medico' });
  phone.offline();
  renderDashboard(phone, 'agenda');
  expect(await screen.findByText(EDITOR_TEXTS.title, {}, LONG)).toBeTruthy();
  expect(screen.getByTestId('doctor-name')).toBeTruthy();
  for (const title of [LOAD_ERROR_TEXTS.profile, LOAD_ERROR_TEXTS.schedule]) {
    expect(screen.queryByText(title)).toBeNull();
  }
});
