import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPatient, PASSWORD, startPlatform } from '../../sync/testing/index.ts';
import type { TestPlatform } from '../../sync/testing/index.ts';
import 'fake-indexeddb/auto';
import '@/testing/jsdom-globals.ts';
import { StrictMode } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import type { AuthContextValue } from '@/session/auth-context.ts';
import { SupabaseContext } from '@/session/supabase-context.ts';
import { signedIn, signedOut, WithAuth } from '@/testing/auth-state.tsx';
import { readReplicaDeletions, recordReplicaDeletion } from './replica-deletions.ts';
import { SyncProvider, useSyncSession } from './sync-provider.tsx';

let t: TestPlatform;

beforeAll(async () => {
  t = await startPlatform();
}, 120_000);

afterAll(async () => {
  await t.stop();
});

/** Shows whose engine is open. */
function Probe() {
  const { engine, user } = useSyncSession();
  return (
    <p data-testid="probe">{engine ? (user ? `${user.role}:${user.id}` : 'visitor') : 'opening'}</p>
  );
}

async function databases(): Promise<string[]> {
  return (await indexedDB.databases()).map((d) => d.name ?? '');
}

/** A new patient signed in on a client of their own, and the auth state that says so. */
async function signedInPatient() {
  const patient = await createPatient(t);
  const client = t.client();
  const { data, error } = await client.auth.signInWithPassword({
    email: patient.email,
    password: PASSWORD,
  });
  if (error) throw error;
  const auth: AuthContextValue = {
    ...signedIn('paciente'),
    user: data.user,
    session: data.session,
  };
  return { patient, client, auth };
}

describe('SyncProvider', () => {
  it('under StrictMode, opens the visitor engine, then the patient one, and deletes the patient replica on sign-out', async () => {
    const { patient, client, auth: asPatient } = await signedInPatient();

    const tree = (auth: AuthContextValue) => (
      <StrictMode>
        <SupabaseContext.Provider value={client}>
          <WithAuth value={auth}>
            <SyncProvider serverUrl={t.url}>
              <Probe />
            </SyncProvider>
          </WithAuth>
        </SupabaseContext.Provider>
      </StrictMode>
    );

    const view = render(tree(signedOut()));
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('visitor'), {
      timeout: 15_000,
    });

    view.rerender(tree(asPatient));
    await waitFor(
      () => expect(screen.getByTestId('probe').textContent).toBe(`paciente:${patient.id}`),
      { timeout: 15_000 },
    );
    expect(await databases()).toEqual(
      expect.arrayContaining([expect.stringContaining(`saudeja-u-${patient.id}`)]),
    );

    view.rerender(tree(signedOut()));
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('visitor'), {
      timeout: 15_000,
    });
    await waitFor(async () =>
      expect((await databases()).some((name) => name.includes(patient.id))).toBe(false),
    );
    act(() => view.unmount());
  });

  it("finishes a sign-out's replica deletion that an earlier page life cut short before the next replica opens", async () => {
    // What a page left behind when it went away in the middle of 'Sair': part of a replica.
    const leaver = 'f0000000-0000-4000-8000-00000000000a';
    const leftover = `rxdb-dexie-saudeja-u-${leaver}--0--perfis_usuarios`;
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(leftover);
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error ?? new Error('open failed'));
    });
    recordReplicaDeletion(leaver);

    const { patient, client, auth } = await signedInPatient();
    const view = render(
      <SupabaseContext.Provider value={client}>
        <WithAuth value={auth}>
          <SyncProvider serverUrl={t.url}>
            <Probe />
          </SyncProvider>
        </WithAuth>
      </SupabaseContext.Provider>,
    );
    await waitFor(
      () => expect(screen.getByTestId('probe').textContent).toBe(`paciente:${patient.id}`),
      { timeout: 15_000 },
    );
    expect(await databases()).not.toContain(leftover);
    expect(readReplicaDeletions()).toEqual([]);
    act(() => view.unmount());
  });
});
