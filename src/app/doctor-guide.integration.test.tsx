import { expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  createDoctor,
  createPatient,
  device,
  platformForFile,
  signedInClient,
  slot,
} from '../../sync/testing/index.ts';
import '@/testing/jsdom-globals.ts';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SupabaseContext } from '@/session/supabase-context.ts';
import { SyncContext } from '@/session/sync-provider.tsx';
import { signedIn, WithAuth } from '@/testing/auth-state.tsx';
import { screenHooks } from '@/testing/screen-hooks.ts';
import { DoctorDashboardPage } from '@/features/doctor-dashboard/doctor-dashboard-page.tsx';
import { GuidePage } from '@/features/guide/guide-page.tsx';

/** The doctor's card leads to the guide page, another feature the app's routes put beside it. */
const t = platformForFile();
screenHooks();

/** These cases never open 'Agenda'. */
const noEditor = () => null;

it("opens the guide of the doctor's appointment from the replica, with no network", async () => {
  const doctor = await createDoctor(t);
  const client = await signedInClient(t, await createPatient(t));
  const booked = await client
    .rpc('paciente_agendar', {
      p_medico_id: doctor.medicoId,
      p_horario_inicio: slot(10),
      p_mutation_id: randomUUID(),
    })
    .single<{ id: string }>();
  if (booked.error) throw booked.error;
  const guide = await client
    .rpc('paciente_gerar_guia', { p_agendamento_id: booked.data.id, p_mutation_id: randomUUID() })
    .single<{ id: string; protocolo: string }>();
  if (guide.error) throw guide.error;

  const phone = await device(t, { as: doctor });
  phone.offline();
  const router = createMemoryRouter(
    [
      { path: '/medico/dashboard/*', element: <DoctorDashboardPage scheduleEditor={noEditor} /> },
      { path: '/guia/:guideId', element: <GuidePage /> },
    ],
    { initialEntries: ['/medico/dashboard/consultas'] },
  );
  render(
    <SupabaseContext.Provider value={phone.client}>
      <WithAuth value={signedIn('medico')}>
        <SyncContext.Provider
          value={{ engine: phone.sync, user: { id: doctor.id, role: 'medico' }, failed: false }}
        >
          <RouterProvider router={router} />
          <Toaster />
        </SyncContext.Provider>
      </WithAuth>
    </SupabaseContext.Provider>,
  );

  const card = await waitFor(
    () => {
      const found = screen
        .getAllByTestId('doctor-appointment')
        .find((el) => el.dataset.appointmentId === booked.data.id);
      if (!found) throw new Error('the card is not shown yet');
      return found;
    },
    { timeout: 15_000 },
  );
  fireEvent.click(within(card).getByRole('link', { name: 'Ver guia' }));
  await waitFor(() => expect(router.state.location.pathname).toBe(`/guia/${guide.data.id}`));
  const protocol = await screen.findByTestId('guide-protocol', undefined, { timeout: 15_000 });
  expect(protocol.textContent).toBe(guide.data.protocolo);
  expect(screen.getByText('Dra. Teste')).toBeTruthy();
});
