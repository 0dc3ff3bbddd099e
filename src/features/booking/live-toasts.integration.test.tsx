import { expect, it } from 'vitest';
import {
  createDoctor,
  device,
  platformForFile,
  slot,
  ZONE,
  type KitDevice,
} from '../../../sync/testing/index.ts';
import { Temporal } from 'temporal-polyfill';
import '@/testing/jsdom-globals.ts';
import { render, screen } from '@testing-library/react';
import { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SupabaseContext } from '@/session/supabase-context.ts';
import { SyncContext } from '@/session/sync-provider.tsx';
import { signedIn, WithAuth } from '@/testing/auth-state.tsx';
import { screenHooks } from '@/testing/screen-hooks.ts';
import { DoctorProfilePage } from './doctor-profile-page.tsx';

/** A visitor's login dialog never opens here (the app composes the real one in). */
const noDialog = () => null;
import { GRID_TEXTS } from './availability-grid.tsx';
import { LIVE_TEXTS } from '@/domain/appointments/live-texts.ts';

/**
 * docs/product-rules.md §4 "Live updates": a patient looking at a doctor's card and grid is
 * told when the doctor's availability or public profile changes elsewhere — not at first load,
 * and not for their own booking.
 */
const t = platformForFile();
const LONG = { timeout: 15_000 };
screenHooks();

function renderProfile(phone: KitDevice, medicoId: string) {
  const router = createMemoryRouter(
    [{ path: '/medico/:id', element: <DoctorProfilePage loginDialog={noDialog} /> }],
    {
      initialEntries: [`/medico/${medicoId}`],
    },
  );
  render(
    <SupabaseContext.Provider value={phone.client}>
      <WithAuth value={signedIn('paciente')}>
        <SyncContext.Provider
          value={{
            engine: phone.sync,
            user: { id: phone.person.id, role: 'paciente' },
            failed: false,
          }}
        >
          <RouterProvider router={router} />
          <Toaster />
        </SyncContext.Provider>
      </WithAuth>
    </SupabaseContext.Provider>,
  );
}

const toastTitles = Object.values(LIVE_TEXTS).map((texts) => texts.title);

function shownLiveToasts(): string[] {
  return toastTitles.filter((title) => screen.queryByText(title) !== null);
}

/** Every day 08:00–18:00, so the grid's first slot of tomorrow is slot(0). */
const DAYTIME = [0, 1, 2, 3, 4, 5, 6].map((dia_semana) => ({
  dia_semana,
  hora_inicio: '08:00',
  hora_fim: '18:00',
  intervalo_em_minutos: 30,
}));

/** slot(0) as the grid labels it. */
const firstSlotTime = Temporal.Instant.from(slot(0))
  .toZonedDateTimeISO(ZONE)
  .toPlainTime()
  .toString({ smallestUnit: 'minute' });

it('a live change of availability toasts once; the first load and the own booking do not', async () => {
  const doctor = await createDoctor(t, { name: 'Dra. Ao Vivo', blocks: DAYTIME });
  const phone = await device(t, { role: 'paciente' });
  renderProfile(phone, doctor.medicoId);
  await screen.findByRole('heading', { level: 1, name: 'Dra. Ao Vivo' }, LONG);
  expect(
    (await screen.findAllByRole('button', { name: firstSlotTime }, LONG)).length,
  ).toBeGreaterThan(0);
  expect(shownLiveToasts()).toEqual([]);

  // The patient's own booking: the slot turns taken, and nothing is announced.
  const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(0) });
  expect(booked.ok).toBe(true);
  await phone.sync.awaitInSync();
  await screen.findAllByRole('button', { name: `${firstSlotTime} - ${GRID_TEXTS.booked}` }, LONG);
  expect(shownLiveToasts()).toEqual([]);

  // The doctor, elsewhere, shortens every day to the morning.
  const changed = await t.admin
    .from('agenda_medico')
    .update({ hora_fim: '12:00' })
    .eq('medico_id', doctor.medicoId);
  expect(changed.error).toBeNull();
  expect(await screen.findByText(LIVE_TEXTS.availability.title, {}, LONG)).toBeTruthy();
  expect(screen.getByText(LIVE_TEXTS.availability.description)).toBeTruthy();
});

it("a live change of the doctor's public profile toasts on the card", async () => {
  const doctor = await createDoctor(t, { name: 'Dr. Perfil Vivo', blocks: DAYTIME });
  const phone = await device(t, { role: 'paciente' });
  renderProfile(phone, doctor.medicoId);
  await screen.findByRole('heading', { level: 1, name: 'Dr. Perfil Vivo' }, LONG);
  await screen.findAllByRole('button', { name: firstSlotTime }, LONG);
  expect(shownLiveToasts()).toEqual([]);

  const changed = await t.admin
    .from('medicos')
    .update({ bio: 'Atende adultos e idosos.', price_in_cents: 18000 })
    .eq('id', doctor.medicoId);
  expect(changed.error).toBeNull();
  expect(await screen.findByText(LIVE_TEXTS.doctor.title, {}, LONG)).toBeTruthy();
  expect(screen.getByText(LIVE_TEXTS.doctor.description)).toBeTruthy();
  expect(await screen.findByText('Atende adultos e idosos.', {}, LONG)).toBeTruthy();
});
