import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { firstValueFrom, filter } from 'rxjs';
import { createDoctor, Device, rows, startPlatform, until } from '../../../sync/testing/index.ts';
import type { TestPlatform } from '../../../sync/testing/index.ts';
import '@/testing/jsdom-globals.ts';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { MemoryRouter } from 'react-router-dom';
import type { MedicoDoc } from '../../../sync/index.ts';
import { SyncContext } from '@/session/sync-provider.tsx';
import { SupabaseContext } from '@/session/supabase-context.ts';
import { installMatchMedia } from '@/testing/match-media.ts';
import { signedIn, signedOut, WithAuth } from '@/testing/auth-state.tsx';
import { ProfileTab } from './profile-tab.tsx';

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

/** The doctor's device after its first sync, and their record from it. */
async function signedInDoctor(doctor: { id: string; email: string }) {
  const device = new Device(t);
  devices.push(device);
  await device.signIn(doctor.email);
  const engine = await device.start({ id: doctor.id, role: 'medico' });
  await engine.awaitInitialSync();
  const own = await firstValueFrom(engine.ownDoctor$.pipe(filter(Boolean)));
  return { device, engine, own };
}

it('an edit saved offline is queued, shown at once, and reaches the server on reconnect', async () => {
  const doctor = await createDoctor(t, { name: 'Dra. Offline' });
  const { device, engine, own } = await signedInDoctor(doctor);

  device.offline();
  const view = (record: MedicoDoc) => (
    <SupabaseContext.Provider value={device.client}>
      <WithAuth value={signedIn('medico')}>
        <SyncContext.Provider
          value={{ engine, user: { id: doctor.id, role: 'medico' }, failed: false }}
        >
          <MemoryRouter>
            <ProfileTab doctor={record} />
            <Toaster />
          </MemoryRouter>
        </SyncContext.Provider>
      </WithAuth>
    </SupabaseContext.Provider>
  );
  // The dashboard passes the live record down (useOwnDoctor); rerender does the same here.
  const { rerender } = render(view(own));
  expect(
    await screen.findByText(
      'O envio da foto precisa de conexão com a internet. Tente de novo quando estiver online.',
    ),
  ).toBeTruthy();

  const save = screen.getByRole<HTMLButtonElement>('button', { name: 'Salvar Alterações' });
  expect(save.disabled).toBe(true);
  fireEvent.change(screen.getByLabelText(/Preço da consulta/), { target: { value: '99,90' } });
  expect(save.disabled).toBe(false);
  fireEvent.click(save);
  expect(
    await screen.findByText('Suas alterações serão enviadas quando a conexão voltar.'),
  ).toBeTruthy();
  const local = await until(engine.ownDoctor$, (d) => d?.price_in_cents === 9990);
  rerender(view(local as MedicoDoc));
  expect(screen.getByLabelText<HTMLInputElement>(/Preço da consulta/).value).toBe('99.90');

  device.online();
  await engine.awaitInSync();
  const [server] = await rows<{ price_in_cents: number; consulta_preco: number }>(
    t.admin.from('medicos').select('price_in_cents, consulta_preco').eq('id', doctor.medicoId),
  );
  expect(server).toEqual({ price_in_cents: 9990, consulta_preco: 99.9 });
});

it("the photo needs the doctor's session: without one, 'Usuário não autenticado.'", async () => {
  const doctor = await createDoctor(t, { name: 'Dra. Sem Sessão' });
  const { device, engine, own } = await signedInDoctor(doctor);
  render(
    <SupabaseContext.Provider value={device.client}>
      <WithAuth value={signedOut()}>
        <SyncContext.Provider value={{ engine, user: null, failed: false }}>
          <MemoryRouter>
            <ProfileTab doctor={{ ...own, user_id: null }} />
          </MemoryRouter>
        </SyncContext.Provider>
      </WithAuth>
    </SupabaseContext.Provider>,
  );
  expect(await screen.findByText('Usuário não autenticado.')).toBeTruthy();
});
