import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform } from '../../../sync/testing/index.ts';
import { testClient, type TestPlatform } from '../../../sync/testing/index.ts';
import '@/testing/jsdom-globals.ts';
import { cleanup, render, waitFor } from '@testing-library/react';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { AppSupabaseClient } from '@/lib/supabase.ts';
import { SupabaseContext } from '@/session/client-context.ts';
import {
  FIRST_SCHEDULE_PATIENCE_MS,
  useFirstSchedule,
  type FirstSchedule,
} from './first-schedule.ts';
import type { RestEndpoint } from '@/lib/rest-read.ts';
import { startEarlyReads } from './first-schedule-requests.ts';

let t: TestPlatform;
let client: SupabaseClient;
const nativeFetch = globalThis.fetch;
/** Every REST read the page sent, counted as they pass through to the real server. */
let restReads: string[] = [];

beforeAll(async () => {
  t = await startPlatform();
  client = t.client();
  globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.includes('/rest/v1/')) restReads.push(new URL(url).pathname);
    return nativeFetch(input, init);
  };
}, 120_000);

afterEach(() => {
  cleanup();
  restReads = [];
  delete window.saudeJaEarlyReads;
});

afterAll(async () => {
  globalThis.fetch = nativeFetch;
  await t.stop();
});

/** What index.html's inlined script leaves behind (src/app/early-reads.ts), once answered. */
async function earlyReadsFor(endpoint: RestEndpoint, age = 0) {
  startEarlyReads(endpoint, Date.now());
  const reads = window.saudeJaEarlyReads!;
  reads.startedAt -= age;
  await reads.bodies.catch(() => undefined);
}

/** Each state the booking page's hook rendered, in order. */
function renderFirstSchedule(pageClient: SupabaseClient = client): FirstSchedule[] {
  const states: FirstSchedule[] = [];
  function Probe() {
    states.push(useFirstSchedule(true));
    return null;
  }
  render(
    <SupabaseContext.Provider value={pageClient as unknown as AppSupabaseClient}>
      <Probe />
    </SupabaseContext.Provider>,
  );
  return states;
}

describe("the booking page's first response started by index.html", () => {
  it('is taken by the page: its first render shows the doctors and nothing is read twice', async () => {
    await earlyReadsFor({ url: t.url, key: t.anonKey });
    const states = renderFirstSchedule();
    const first = states[0]!;
    expect(first.kind).toBe('ready');
    if (first.kind !== 'ready') return;
    expect(first.doctors.map((d) => d.public_name)).toEqual(
      expect.arrayContaining(['Dra. Ana Ribeiro', 'Dr. Paulo Mendes']),
    );
    expect(window.saudeJaEarlyReads).toBeUndefined();
    expect(restReads.sort()).toEqual([
      '/rest/v1/agenda_medico',
      '/rest/v1/agenda_ocupada',
      '/rest/v1/medicos',
    ]);
  });

  it('is taken while still on the wire: the page shows it when it arrives, without reading again', async () => {
    startEarlyReads({ url: t.url, key: t.anonKey }, Date.now());
    const states = renderFirstSchedule();
    expect(states[0]!.kind).toBe('loading');
    await waitFor(() => expect(states.at(-1)!.kind).toBe('ready'));
    expect(restReads).toHaveLength(3);
  });

  it('is not taken for another endpoint than the page reads: the page reads its own', async () => {
    await earlyReadsFor({ url: t.url, key: t.serviceRoleKey });
    restReads = [];
    const states = renderFirstSchedule();
    expect(states[0]!.kind).toBe('loading');
    await waitFor(() => expect(states.at(-1)!.kind).toBe('ready'));
    expect(restReads).toHaveLength(3);
  });

  it('is not taken once older than the patience: its slots are those of another moment', async () => {
    await earlyReadsFor({ url: t.url, key: t.anonKey }, FIRST_SCHEDULE_PATIENCE_MS + 1);
    restReads = [];
    const states = renderFirstSchedule();
    await waitFor(() => expect(states.at(-1)!.kind).toBe('ready'));
    expect(restReads).toHaveLength(3);
  });

  it('that failed makes the page fall back to the replica, without reading again', async () => {
    const unreachable = 'http://127.0.0.1:9';
    await earlyReadsFor({ url: unreachable, key: t.anonKey });
    const states = renderFirstSchedule(testClient(unreachable, t.anonKey));
    await waitFor(() => expect(states.at(-1)!.kind).toBe('failed'));
    expect(restReads).toHaveLength(3);
  });
});
