import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Session, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import {
  Network,
  PASSWORD,
  createDoctor,
  createPatient,
  slot,
  startPlatform,
  type DoctorFixture,
} from '../../sync/testing/index.ts';
import type { TestPlatform } from '../../sync/testing/index.ts';
import 'fake-indexeddb/auto';
import '@/testing/jsdom-globals.ts';
import { useMemo } from 'react';
import {
  act,
  cleanup,
  configure,
  fireEvent,
  render,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { LoginPage } from '@/features/auth/login-page.tsx';
import { AuthProvider } from '@/session/auth-provider.tsx';
import { SignOutConfirmationProvider } from '@/session/sign-out-confirmation.tsx';
import { readStoredSession } from '@/session/stored-session.ts';
import { SyncProvider, useObservable, useSyncSession } from '@/session/sync-provider.tsx';
import { installMatchMedia } from '@/testing/match-media.ts';
import { Header } from './layout/header.tsx';
import { RequireRole } from './require-role.tsx';

/**
 * The app shell's auth contract (sync/SPEC.md A2) against the real platform, supabase-js and
 * RxDB on fake-indexeddb: who is signed in is read from the stored session, offline or with
 * an expired token; only 'Sair' (asked first when changes wait) or the server refusing the
 * refresh token signs out, and a refusal keeps the unsent changes for the same person.
 */

let t: TestPlatform;
let doctor: DoctorFixture;

// Replicas open and sync in the background: a machine busy with other suites needs more than 1 s.
configure({ asyncUtilTimeout: 10_000 });

beforeAll(async () => {
  installMatchMedia();
  t = await startPlatform();
  doctor = await createDoctor(t);
}, 120_000);

afterAll(async () => {
  await t.stop();
});

afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

/** Sessions kept in memory, like one browser profile's localStorage. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

let browsers = 0;
let onLine = true;
Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => onLine });

/**
 * One browser profile: its stored session survives "reopening" (a new supabase-js client over
 * the same storage), and its network can be switched off, as the browser reports it.
 */
class Browser {
  readonly storage = memoryStorage();
  readonly net = new Network(t.anonKey);
  // A storage key of its own: supabase-js clients of one key talk over BroadcastChannel.
  readonly storageKey = `sb-offline-test-${++browsers}`;
  private readonly clients: SupabaseClient[] = [];

  constructor(private readonly autoRefreshToken: boolean) {}

  open(): SupabaseClient {
    const client = createClient(t.url, t.anonKey, {
      auth: {
        storage: this.storage,
        storageKey: this.storageKey,
        autoRefreshToken: this.autoRefreshToken,
        persistSession: true,
        detectSessionInUrl: false,
      },
      global: { fetch: this.net.fetch },
      realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
    });
    this.clients.push(client);
    return client;
  }

  stored(): Session {
    const raw = this.storage.getItem(this.storageKey);
    if (!raw) throw new Error('no stored session');
    return JSON.parse(raw) as Session;
  }

  /** The access token's whole life is over, as after a night with the laptop closed. */
  expire(): void {
    const session = this.stored();
    session.expires_at = Math.floor(Date.now() / 1000) - 7200;
    this.storage.setItem(this.storageKey, JSON.stringify(session));
  }

  offline(): void {
    this.net.online = false;
    onLine = false;
    window.dispatchEvent(new Event('offline'));
  }

  online(): void {
    this.net.online = true;
    onLine = true;
    window.dispatchEvent(new Event('online'));
  }

  async close(): Promise<void> {
    for (const client of this.clients) {
      await client.auth.stopAutoRefresh();
      await client.removeAllChannels();
      await client.auth.dispose();
    }
  }
}

async function signIn(client: SupabaseClient, email: string): Promise<void> {
  const { error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (error) throw error;
}

/** The patient's list as a dashboard shows it, with a button that books `slot(n)`. */
function Appointments({ nextSlot }: { nextSlot: () => number }) {
  const { engine } = useSyncSession();
  const list$ = useMemo(() => engine?.appointments$ ?? null, [engine]);
  const list = useObservable(list$, undefined);
  if (!engine || list === undefined) return <p>abrindo</p>;
  const book = () =>
    void engine.book({ medicoId: doctor.medicoId, horarioInicio: slot(nextSlot()) });
  return (
    <section aria-label="consultas">
      <button type="button" onClick={book}>
        Agendar
      </button>
      <ul>
        {list.map((a) => (
          <li key={a.id} data-testid="appointment" data-sync={a.sync.state}>
            {a.horario_inicio}
          </li>
        ))}
      </ul>
    </section>
  );
}

function renderApp(client: SupabaseClient, slots: number[]) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <p>início</p> },
      { path: '/acesso-paciente', element: <LoginPage target="paciente" /> },
      {
        path: '/paciente/dashboard',
        element: (
          <RequireRole roles={['paciente']}>
            <Appointments nextSlot={() => slots.shift() ?? 0} />
          </RequireRole>
        ),
      },
    ].map((route) => ({
      ...route,
      element: (
        <>
          <Header />
          {route.element}
        </>
      ),
    })),
    { initialEntries: ['/paciente/dashboard'] },
  );
  render(
    <AuthProvider client={client}>
      <SyncProvider serverUrl={t.url}>
        <SignOutConfirmationProvider>
          <RouterProvider router={router} />
        </SignOutConfirmationProvider>
      </SyncProvider>
      <Toaster />
    </AuthProvider>,
  );
  return router;
}

async function replicaExists(userId: string): Promise<boolean> {
  return (await indexedDB.databases()).some((d) => d.name?.includes(userId));
}

async function serverBookings(patientId: string): Promise<number> {
  const { data, error } = await t.admin
    .from('agendamentos')
    .select('id')
    .eq('patient_id', patientId);
  if (error) throw error;
  return data.length;
}

const items = () => screen.queryAllByTestId('appointment');

/** Waits for a first visit online: profile cached, replica synced with the patient's list. */
async function firstVisit(client: SupabaseClient, slots: number[], count: number) {
  const router = renderApp(client, slots);
  await waitFor(() => expect(screen.getByRole('button', { name: 'Agendar' })).toBeTruthy(), {
    timeout: 20_000,
  });
  await waitFor(() => expect(items()).toHaveLength(count), { timeout: 20_000 });
  return router;
}

describe('the app shell offline and with expired tokens (A2)', () => {
  it('reopened offline with a long-expired token shows the dashboard from the replica at once, stays signed in, and sends the offline booking once when back online', async () => {
    const patient = await createPatient(t);
    const browser = new Browser(true);
    const yesterday = browser.open();
    await signIn(yesterday, patient.email);
    await firstVisit(yesterday, [1], 0);
    fireEvent.click(screen.getByRole('button', { name: 'Agendar' }));
    await waitFor(() => expect(items()[0]?.dataset.sync).toBe('synced'), { timeout: 20_000 });
    cleanup();
    await browser.close();

    // The next morning: no connection, and the token died hours ago.
    browser.offline();
    browser.expire();
    const today = browser.open();
    const initialSession = new Promise<Session | null>((resolve) => {
      today.auth.onAuthStateChange((event, session) => {
        if (event === 'INITIAL_SESSION') resolve(session);
      });
    });
    const router = renderApp(today, [3]);
    await waitFor(() => expect(items()).toHaveLength(1), { timeout: 5_000 });
    expect(router.state.location.pathname).toBe('/paciente/dashboard');
    expect(screen.getByRole('button', { name: 'Sair' })).toBeTruthy();

    // supabase-js gives up refreshing (~30 s of retries) and reports no session: the person
    // is still signed in, because the session is still stored.
    expect(await initialSession).toBeNull();
    // The provider hears the same answer on its own subscription and handles it a task later.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(router.state.location.pathname).toBe('/paciente/dashboard');
    expect(items()).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Agendar' }));
    await waitFor(() => expect(items().map((i) => i.dataset.sync)).toContain('pending'));

    // Back online: the token is refreshed in the background and the booking is sent once.
    browser.online();
    await waitFor(() => expect(items().map((i) => i.dataset.sync)).toEqual(['synced', 'synced']), {
      timeout: 120_000,
      interval: 500,
    });
    expect(await serverBookings(patient.id)).toBe(2);
    expect(router.state.location.pathname).toBe('/paciente/dashboard');
    expect(readStoredSession(today)?.expires_at ?? 0).toBeGreaterThan(Date.now() / 1000);
    cleanup();
    await browser.close();
  }, 180_000);

  it('a refresh token the server refuses signs out with the message, keeps the unsent booking, warns another person, and sends it when the same person signs in again', async () => {
    const patient = await createPatient(t);
    const other = await createPatient(t);
    const browser = new Browser(false);
    const client = browser.open();
    await signIn(client, patient.email);
    const router = await firstVisit(client, [5], 0);

    browser.offline();
    fireEvent.click(screen.getByRole('button', { name: 'Agendar' }));
    await waitFor(() => expect(items()[0]?.dataset.sync).toBe('pending'));

    // An administrator ends every session of the person; their access token then runs out.
    const { error } = await t.admin.auth.admin.signOut(browser.stored().access_token, 'global');
    expect(error).toBeNull();
    browser.expire();
    browser.online();

    await waitFor(() => expect(router.state.location.pathname).toBe('/acesso-paciente'), {
      timeout: 20_000,
    });
    // Told in the sign-in page itself (and in a toast wherever the person was).
    const told = await screen.findAllByText('Sua sessão expirou. Entre novamente.');
    expect(told.some((el) => el.closest('form, [role="alert"]'))).toBe(true);
    await screen.findByText(/tem 1 alteração ainda não enviada neste aparelho/);
    expect(await replicaExists(patient.id)).toBe(true);
    expect(await serverBookings(patient.id)).toBe(0);

    const form = () => within(screen.getByRole('form', { name: 'Entrar' }));
    const logIn = (email: string) => {
      fireEvent.change(form().getByLabelText('E-mail'), { target: { value: email } });
      fireEvent.change(form().getByLabelText('Senha', { selector: 'input' }), {
        target: { value: PASSWORD },
      });
      fireEvent.click(form().getByRole('button', { name: 'Entrar' }));
    };

    // The way back is short: the person who was signed in is already in the form.
    expect(form().getByLabelText('E-mail')).toHaveProperty('value', patient.email);

    // Someone else is told first what signing in discards, and is not signed in yet.
    logIn(other.email);
    expect(
      await screen.findByText(
        `Entrar com outra conta descartará 1 alteração ainda não enviada de ${patient.email}. Clique em Entrar novamente para continuar.`,
      ),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/acesso-paciente');

    // The same person signs in again: the kept queue is sent, once.
    logIn(patient.email);
    await waitFor(() => expect(router.state.location.pathname).toBe('/paciente/dashboard'), {
      timeout: 20_000,
    });
    await waitFor(() => expect(items().map((i) => i.dataset.sync)).toEqual(['synced']), {
      timeout: 30_000,
    });
    expect(await serverBookings(patient.id)).toBe(1);
    cleanup();
    await browser.close();
  }, 120_000);

  it('reopened online after the server revoked the session: signed out with the message, which stays', async () => {
    const patient = await createPatient(t);
    const browser = new Browser(true);
    const before = browser.open();
    await signIn(before, patient.email);
    await firstVisit(before, [], 0);
    const { error } = await t.admin.auth.admin.signOut(browser.stored().access_token, 'global');
    expect(error).toBeNull();
    cleanup();
    await browser.close();

    // supabase-js removes the session while it starts, and reports it twice (SIGNED_OUT and
    // INITIAL_SESSION null): the reason must survive the second report.
    browser.expire();
    const after = browser.open();
    const initialSession = new Promise<Session | null>((resolve) => {
      after.auth.onAuthStateChange((event, session) => {
        if (event === 'INITIAL_SESSION') resolve(session);
      });
    });
    const router = renderApp(after, []);
    await waitFor(() => expect(router.state.location.pathname).toBe('/acesso-paciente'));
    expect(await initialSession).toBeNull();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    act(() => toast.remove());
    expect(screen.getByRole('alert').textContent).toBe(
      'Sua sessão expirou. Entre novamente.' +
        'O servidor encerrou o acesso deste aparelho. Ao entrar, você volta para onde estava.',
    );
    cleanup();
    await browser.close();
  }, 60_000);

  it("'Sair' with an unsent change asks first; cancelling keeps everything, confirming deletes the replica", async () => {
    const patient = await createPatient(t);
    const browser = new Browser(false);
    const client = browser.open();
    await signIn(client, patient.email);
    const router = await firstVisit(client, [7], 0);
    browser.offline();
    fireEvent.click(screen.getByRole('button', { name: 'Agendar' }));
    await waitFor(() => expect(items()[0]?.dataset.sync).toBe('pending'));

    const signOut = screen.getByRole('button', { name: 'Sair' });
    fireEvent.click(signOut);
    const dialog = await screen.findByRole('dialog', { name: 'Sair da conta?' });
    expect(
      within(dialog).getByText('Você tem 1 alteração ainda não enviada. Sair mesmo assim?'),
    ).toBeTruthy();
    const cancel = within(dialog).getByRole('button', { name: 'Cancelar' });
    fireEvent.keyDown(cancel, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/paciente/dashboard');
    expect(items()[0]?.dataset.sync).toBe('pending');
    expect(await replicaExists(patient.id)).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Sair' }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sair mesmo assim' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await screen.findByRole('link', { name: 'Área do Paciente' });
    expect(screen.queryByText('Sua sessão expirou. Entre novamente.')).toBeNull();
    await waitFor(async () => expect(await replicaExists(patient.id)).toBe(false));
    cleanup();
    await browser.close();
  }, 60_000);
});
