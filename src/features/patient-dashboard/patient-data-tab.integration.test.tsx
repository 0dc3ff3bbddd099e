import { expect, it } from 'vitest';
import { device, platformForFile, rows, until } from '../../../sync/testing/index.ts';
import '@/testing/jsdom-globals.ts';
import { fireEvent, render, screen } from '@testing-library/react';
import { Toaster } from 'react-hot-toast';
import { MemoryRouter } from 'react-router-dom';
import { MESSAGES } from '@/domain/schemas/fields.ts';
import { signedIn, WithAuth } from '@/testing/auth-state.tsx';
import { screenHooks } from '@/testing/screen-hooks.ts';
import { SupabaseContext } from '@/session/supabase-context.ts';
import { SyncContext } from '@/session/sync-provider.tsx';
import { DADOS_TEXTS, PatientDataTab } from './patient-data-tab.tsx';

/** docs/product-rules.md §5 "Patient data": WhatsApp is free text, saved as typed. */
const t = platformForFile();
screenHooks();

it.each([
  ['a partial number, with a gentle hint', '119876', '(11) 9876', true],
  ['a foreign number, without one', '+351 912 345 678', '+351 912 345 678', false],
])('saves %s', async (_name, typed, saved, hinted) => {
  const phone = await device(t, { role: 'paciente' });
  const engine = phone.sync;
  const patient = phone.person;
  render(
    <SupabaseContext.Provider value={phone.client}>
      <WithAuth value={signedIn('paciente')}>
        <SyncContext.Provider
          value={{ engine, user: { id: patient.id, role: 'paciente' }, failed: false }}
        >
          <MemoryRouter>
            <PatientDataTab />
            <Toaster />
          </MemoryRouter>
        </SyncContext.Provider>
      </WithAuth>
    </SupabaseContext.Provider>,
  );

  const input = await screen.findByLabelText<HTMLInputElement>(DADOS_TEXTS.whatsapp);
  fireEvent.change(input, { target: { value: typed } });
  expect(input.value).toBe(saved);
  expect(screen.queryByText(MESSAGES.whatsappLooksIncomplete) !== null).toBe(hinted);
  fireEvent.click(screen.getByRole('button', { name: DADOS_TEXTS.save }));

  expect(await screen.findByText(DADOS_TEXTS.savedTitle)).toBeTruthy();
  expect(input.getAttribute('aria-invalid')).toBeNull();
  await until(engine.profile$, (p) => p?.whatsapp === saved);
  await engine.awaitInSync();
  const [server] = await rows<{ whatsapp: string | null }>(
    t.admin.from('perfis_usuarios').select('whatsapp').eq('id', patient.id),
  );
  expect(server?.whatsapp).toBe(saved);
});
