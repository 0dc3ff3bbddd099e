// @vitest-environment jsdom
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createClient } from '@supabase/supabase-js';
import toast, { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ERROR_MESSAGES } from '@/domain/errors/messages.ts';
import { REQUEST_TIMEOUT_MS } from '@/domain/requests/retry-policy.ts';
import { withDeadline, type Timer } from '@/lib/request-deadline.ts';
import { SupabaseContext } from '@/session/supabase-context.ts';
import { installMatchMedia } from '@/testing/match-media.ts';
import { AuthForm } from './auth-form.tsx';

installMatchMedia();

/**
 * A real HTTP server that accepts every request and never answers: a hung connection, as a
 * phone on a dead mobile network meets it. Sign-in must end in the timeout's message
 * (docs/product-rules.md §8 "Generic", §9 "requests").
 */
let server: Server;
let url: string;
let received = 0;

beforeAll(async () => {
  server = createServer(() => {
    received++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

/** A clock the test moves by hand: each deadline waits here until `fireAll`. */
function manualClock() {
  const pending: { ms: number; fire: () => void }[] = [];
  const timer: Timer = (ms, fire) => {
    const entry = { ms, fire };
    pending.push(entry);
    return () => pending.splice(pending.indexOf(entry) >>> 0, 1);
  };
  return {
    timer,
    pending,
    fireAll: () => [...pending].forEach((p) => p.fire()),
  };
}

describe('a sign-in on a connection that never answers', () => {
  it('gives up after 6 s with the timeout message', async () => {
    const clock = manualClock();
    const client = createClient(url, 'anon-key', {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      global: { fetch: withDeadline((input, init) => fetch(input, init), clock) },
    });
    const router = createMemoryRouter([
      { path: '/', element: <AuthForm target="paciente" initialMode="login" /> },
    ]);
    render(
      <SupabaseContext.Provider value={client}>
        <RouterProvider router={router} />
        <Toaster />
      </SupabaseContext.Provider>,
    );
    const before = received;
    fireEvent.change(screen.getByLabelText('E-mail', { selector: 'input' }), {
      target: { value: 'paciente@example.com' },
    });
    fireEvent.change(screen.getByLabelText('Senha', { selector: 'input' }), {
      target: { value: 'senha-forte-123' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));

    // The request reached the server, which holds it; the form waits with its deadline set.
    await waitFor(() => expect(received).toBe(before + 1));
    expect(clock.pending.map((p) => p.ms)).toEqual([REQUEST_TIMEOUT_MS]);
    expect(screen.queryByText('Falha no Login')).toBeNull();

    act(() => clock.fireAll());
    expect(await screen.findByText('Falha no Login')).toBeTruthy();
    expect(screen.getByText(ERROR_MESSAGES.timeout)).toBeTruthy();
    expect(clock.pending).toEqual([]);
  });
});
