import { describe, expect, it } from 'vitest';
import type { Session, User } from '@supabase/supabase-js';
import { AuthMachine, SIGNED_OUT, type AuthPorts } from './auth-machine.ts';
import type { Profile, ProfileResult } from './profile.ts';

/**
 * The auth transitions without React or a server (the provider and supabase-js on the real
 * platform: src/app/offline-session.integration.test.tsx, auth-flows.integration.test.tsx).
 */

function userOf(id: string, role = 'paciente'): User {
  return { id, email: `${id}@test.example`, user_metadata: { role } } as unknown as User;
}

function sessionOf(user: User, token = 'a'): Session {
  return { access_token: token, user } as unknown as Session;
}

function profileOf(user: User, fullName = 'Ana'): Profile {
  return {
    id: user.id,
    role: 'paciente',
    full_name: fullName,
    email: user.email ?? null,
    cpf: null,
    data_nasc: null,
    whatsapp: null,
  };
}

/** A device: what is stored on it, what the server answers, and what the person was told. */
function device(opts: { stored?: Session | null; cached?: Profile[] } = {}) {
  const d = {
    stored: opts.stored ?? null,
    cache: new Map((opts.cached ?? []).map((p) => [p.id, p])),
    mark: null as string | null,
    answers: [] as { attempts: number; answer: (result: ProfileResult) => void }[],
    expiredToasts: 0,
    greetings: [] as string[],
  };
  const ports: AuthPorts = {
    readStored: () => d.stored,
    fetchProfile: (_user, attempts) =>
      new Promise((answer) => d.answers.push({ attempts, answer })),
    readCachedProfile: (id) => d.cache.get(id) ?? null,
    writeCachedProfile: (profile, id) => (profile ? d.cache.set(id, profile) : d.cache.delete(id)),
    markSignOut: (id) => (d.mark = id),
    signedOutByUser: (id) => d.mark === id,
    announceSignIn: (event) => d.greetings.push(event),
    sessionExpired: () => d.expiredToasts++,
  };
  return { d, ports };
}

/** Lets the machine apply a profile answer. */
async function answer(d: ReturnType<typeof device>['d'], result: ProfileResult) {
  const pending = d.answers.shift();
  if (!pending) throw new Error('no profile read is pending');
  pending.answer(result);
  await Promise.resolve();
  await Promise.resolve();
}

const ana = userOf('ana');

describe('start', () => {
  it('a visitor with nothing stored is known at once', () => {
    const { ports } = device();
    expect(new AuthMachine(ports, { stored: null, pending: false }).getState()).toEqual(SIGNED_OUT);
  });

  it('waits for supabase-js when its storage or the URL decides', () => {
    const { ports } = device();
    const machine = new AuthMachine(ports, { stored: null, pending: true });
    expect(machine.getState()).toMatchObject({ loading: true, user: null });
  });

  it('a stored session (expired or not) is signed in from the start, with the cached profile', () => {
    const profile = profileOf(ana);
    const { ports } = device({ cached: [profile] });
    const machine = new AuthMachine(ports, { stored: sessionOf(ana), pending: false });
    expect(machine.getState()).toMatchObject({
      loading: false,
      user: ana,
      profile,
      role: 'paciente',
    });
  });

  it('without a cached profile it is loading, the role read from the metadata', () => {
    const { ports } = device();
    const machine = new AuthMachine(ports, { stored: sessionOf(ana), pending: false });
    expect(machine.getState()).toMatchObject({ loading: true, profile: null, role: 'paciente' });
  });
});

describe('offline or with an expired token, the person stays signed in', () => {
  it.each(['INITIAL_SESSION', 'TOKEN_REFRESHED'] as const)(
    '%s without a session while one is stored changes nothing',
    (event) => {
      const stored = sessionOf(ana);
      const { d, ports } = device({ stored, cached: [profileOf(ana)] });
      const machine = new AuthMachine(ports, { stored, pending: false });
      const before = machine.getState();
      machine.handle(event, null);
      expect(machine.getState()).toBe(before);
      expect(d.expiredToasts).toBe(0);
    },
  );

  it('an unreachable server keeps the profile already known', async () => {
    const stored = sessionOf(ana);
    const profile = profileOf(ana);
    const { d, ports } = device({ stored, cached: [profile] });
    const machine = new AuthMachine(ports, { stored, pending: false });
    void machine.loadProfile(ana, 3);
    await answer(d, { kind: 'unreachable' });
    expect(machine.getState()).toMatchObject({ user: ana, profile, role: 'paciente' });
    expect(d.cache.get(ana.id)).toEqual(profile);
  });
});

describe('only the server refusing the session, or Sair, signs out', () => {
  it('a removed session the person did not ask for: expired, and they are told', () => {
    const stored = sessionOf(ana);
    const { d, ports } = device({ stored });
    const machine = new AuthMachine(ports, { stored, pending: false });
    d.stored = null;
    machine.handle('SIGNED_OUT', null);
    expect(machine.getState()).toEqual({
      ...SIGNED_OUT,
      expired: { userId: ana.id, email: ana.email },
    });
    expect(d.expiredToasts).toBe(1);
  });

  it('the second report of one removal keeps why it happened', () => {
    const stored = sessionOf(ana);
    const { d, ports } = device({ stored });
    const machine = new AuthMachine(ports, { stored, pending: false });
    d.stored = null;
    machine.handle('SIGNED_OUT', null);
    machine.handle('INITIAL_SESSION', null);
    expect(machine.getState().expired).toEqual({ userId: ana.id, email: ana.email });
    expect(d.expiredToasts).toBe(1);
  });

  it("'Sair' in this tab: signed out by the person, no toast", () => {
    const stored = sessionOf(ana);
    const { d, ports } = device({ stored });
    const machine = new AuthMachine(ports, { stored, pending: false });
    machine.signOutRequestedByUser();
    expect(d.mark).toBe(ana.id);
    machine.handle('SIGNED_OUT', null);
    expect(machine.getState()).toEqual({ ...SIGNED_OUT, signedOutByUser: true });
    expect(d.expiredToasts).toBe(0);
  });

  it("'Sair' in another tab (its mark) is the person's too", () => {
    const stored = sessionOf(ana);
    const { d, ports } = device({ stored });
    const machine = new AuthMachine(ports, { stored, pending: false });
    d.mark = ana.id;
    machine.handle('SIGNED_OUT', null);
    expect(machine.getState().signedOutByUser).toBe(true);
    expect(d.expiredToasts).toBe(0);
  });

  it('a visitor hearing "no session" stops loading', () => {
    const { ports } = device();
    const machine = new AuthMachine(ports, { stored: null, pending: true });
    machine.handle('INITIAL_SESSION', null);
    expect(machine.getState()).toEqual(SIGNED_OUT);
  });
});

describe('signing in', () => {
  it('a new person: signed in, greeted, the mark cleared and the profile read (3 attempts)', async () => {
    const { d, ports } = device();
    d.mark = 'someone';
    const machine = new AuthMachine(ports, { stored: null, pending: true });
    const seen: unknown[] = [];
    machine.subscribe(() => seen.push(machine.getState()));
    machine.handle('SIGNED_IN', sessionOf(ana));
    expect(machine.getState()).toMatchObject({ loading: true, user: ana });
    expect(d.greetings).toEqual(['SIGNED_IN']);
    expect(d.mark).toBeNull();
    expect(d.answers.map((a) => a.attempts)).toEqual([3]);
    const profile = profileOf(ana);
    await answer(d, { kind: 'found', profile });
    expect(machine.getState()).toMatchObject({ loading: false, profile, role: 'paciente' });
    expect(d.cache.get(ana.id)).toEqual(profile);
    expect(seen).toHaveLength(2);
  });

  it('a refreshed token of the same person keeps the profile; USER_UPDATED reads it again', async () => {
    const stored = sessionOf(ana);
    const { d, ports } = device({ stored, cached: [profileOf(ana)] });
    const machine = new AuthMachine(ports, { stored, pending: false });
    const refreshed = sessionOf(ana, 'b');
    machine.handle('TOKEN_REFRESHED', refreshed);
    expect(machine.getState()).toMatchObject({ session: refreshed, profile: profileOf(ana) });
    expect(d.answers).toEqual([]);
    machine.handle('USER_UPDATED', refreshed);
    await answer(d, { kind: 'found', profile: profileOf(ana, 'Ana Maria') });
    expect(machine.getState().profile?.full_name).toBe('Ana Maria');
  });

  it('a profile the server no longer has is forgotten', async () => {
    const stored = sessionOf(ana);
    const { d, ports } = device({ stored, cached: [profileOf(ana)] });
    const machine = new AuthMachine(ports, { stored, pending: false });
    void machine.refreshProfile();
    await answer(d, { kind: 'missing' });
    expect(machine.getState()).toMatchObject({ profile: null, role: 'paciente' });
    expect(d.cache.has(ana.id)).toBe(false);
  });

  it('a profile answer that arrives after the person left is dropped', async () => {
    const stored = sessionOf(ana);
    const { d, ports } = device({ stored });
    const machine = new AuthMachine(ports, { stored, pending: false });
    void machine.loadProfile(ana, 3);
    machine.signOutRequestedByUser();
    machine.handle('SIGNED_OUT', null);
    await answer(d, { kind: 'found', profile: profileOf(ana) });
    expect(machine.getState()).toEqual({ ...SIGNED_OUT, signedOutByUser: true });
    expect(d.cache.has(ana.id)).toBe(false);
  });

  it('a session another tab stored, heard as "no session", signs this tab in', () => {
    const { d, ports } = device();
    const machine = new AuthMachine(ports, { stored: null, pending: true });
    d.stored = sessionOf(ana);
    machine.handle('INITIAL_SESSION', null);
    expect(machine.getState()).toMatchObject({ user: ana, session: d.stored });
  });
});
