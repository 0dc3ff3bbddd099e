import type { AuthChangeEvent, Session, User } from '@supabase/supabase-js';
import * as v from 'valibot';
import type { AuthState } from './auth-context.ts';
import {
  PROFILE_ATTEMPTS_FIRST,
  PROFILE_ATTEMPTS_LATER,
  RoleSchema,
  type Profile,
  type ProfileResult,
  type Role,
} from './profile.ts';

export const SIGNED_OUT: AuthState = {
  loading: false,
  session: null,
  user: null,
  profile: null,
  role: null,
};

/** What the machine reads and does outside itself; auth-provider.tsx hands in the real ones. */
export type AuthPorts = {
  /** The session stored on this device, read without the network; null when there is none. */
  readStored(): Session | null;
  /** The person's profile from the server, read up to `attempts` times. */
  fetchProfile(user: User, attempts: number): Promise<ProfileResult>;
  /** The profile kept on this device, so the role is known offline (profile.ts). */
  readCachedProfile(userId: string): Profile | null;
  writeCachedProfile(profile: Profile | null, userId: string): void;
  /** Leaves the mark of 'Sair' for every tab (sign-out-mark.ts); null clears it. */
  markSignOut(userId: string | null): void;
  /** Whether 'Sair' was pressed for this person, in this tab or another. */
  signedOutByUser(userId: string): boolean;
  /** Greets a sign-in (sign-in-announcement.ts). */
  announceSignIn(event: AuthChangeEvent, user: User, wasSignedOut: boolean): void;
  /** Tells the person the server ended their session. */
  sessionExpired(): void;
};

function roleOf(profile: Profile | null, user: User): Role | null {
  if (profile) return profile.role;
  const fromMetadata = v.safeParse(RoleSchema, user.user_metadata?.role);
  return fromMetadata.success ? fromMetadata.output : null;
}

/**
 * Who is signed in on this device, as plain code: supabase-js's auth events, 'Sair' and the
 * profile reads go in, the `AuthState` every screen reads comes out (auth-provider.tsx puts
 * React on top).
 *
 * Who is signed in is a local fact (sync/SPEC.md A2, docs/sessions.md): it starts from the
 * stored session, whatever the token's expiry and without the network, and only two things
 * end it — the person's own 'Sair', or supabase-js removing the session because the auth
 * server refused its refresh token (an answer; a network failure keeps the session stored).
 */
export class AuthMachine {
  private state: AuthState;
  /** The person signed in now; the state's `user` may still show someone being signed out. */
  private user: User | null;
  private signOutRequested = false;
  private readonly listeners = new Set<() => void>();

  /**
   * `stored`: the session on the device at start. Without one, `pending` says whether
   * supabase-js's events are still to decide (a storage that answers asynchronously, an
   * e-mail link's tokens in the URL); otherwise this is a visitor, known at once.
   */
  constructor(
    private readonly ports: AuthPorts,
    start: { stored: Session | null; pending: boolean },
  ) {
    this.user = start.stored?.user ?? null;
    this.state = start.stored
      ? this.signedInState(start.stored)
      : start.pending
        ? { ...SIGNED_OUT, loading: true }
        : SIGNED_OUT;
  }

  readonly getState = (): AuthState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** An auth event of supabase-js; also a 'SIGNED_OUT' after an offline 'Sair', which it does not send. */
  handle(event: AuthChangeEvent, session: Session | null): void {
    const previous = this.user;
    if (!session) {
      // supabase-js reports "no session" when it could not refresh an expiring token (no
      // network, auth unreachable) although the session is still stored: the person is
      // still signed in. Only a removed session (SIGNED_OUT, storage empty) ends it.
      const stored = event === 'SIGNED_OUT' ? null : this.ports.readStored();
      if (!stored) {
        this.signedOut(previous);
        return;
      }
      if (previous?.id === stored.user.id) return;
      session = stored;
    }
    const user = session.user;
    this.user = user;
    this.ports.announceSignIn(event, user, previous === null);
    if (previous?.id !== user.id) {
      this.ports.markSignOut(null);
      this.set(this.signedInState(session));
      void this.loadProfile(user, PROFILE_ATTEMPTS_FIRST);
      return;
    }
    this.set({ ...this.state, session, user });
    if (event === 'SIGNED_IN' || event === 'USER_UPDATED') {
      void this.loadProfile(user, PROFILE_ATTEMPTS_LATER);
    }
  }

  /** 'Sair' was pressed: the end of the session that follows is the person's own. */
  signOutRequestedByUser(): void {
    this.signOutRequested = true;
    this.ports.markSignOut(this.user?.id ?? null);
  }

  /**
   * Reads the person's profile; an answer that comes after they left is dropped, and an
   * unreachable server keeps the profile already known.
   */
  async loadProfile(user: User, attempts: number): Promise<void> {
    const result = await this.ports.fetchProfile(user, attempts);
    if (this.user?.id !== user.id) return;
    let profile: Profile | null;
    if (result.kind === 'found') profile = result.profile;
    else if (result.kind === 'unreachable') profile = this.state.profile;
    else profile = null;
    if (result.kind !== 'unreachable') this.ports.writeCachedProfile(profile, user.id);
    this.set({ ...this.state, loading: false, profile, role: roleOf(profile, user) });
  }

  /** Re-reads the profile after the person edits it. */
  async refreshProfile(): Promise<void> {
    const user = this.state.user;
    if (user) await this.loadProfile(user, PROFILE_ATTEMPTS_LATER);
  }

  private signedOut(previous: User | null): void {
    // supabase-js reports one removal twice when it happens during its start-up (SIGNED_OUT
    // and INITIAL_SESSION null): the second must not erase why the first signed out.
    if (!previous) {
      if (this.state.loading) this.set({ ...this.state, loading: false });
      return;
    }
    this.user = null;
    const byUser = this.signOutRequested || this.ports.signedOutByUser(previous.id);
    this.signOutRequested = false;
    if (!byUser) {
      this.set({ ...SIGNED_OUT, expired: { userId: previous.id, email: previous.email ?? null } });
      this.ports.sessionExpired();
      return;
    }
    this.set({ ...SIGNED_OUT, signedOutByUser: true });
  }

  /** The state for a known person; the profile comes from the cache until it is read again. */
  private signedInState(session: Session): AuthState {
    const cached = this.ports.readCachedProfile(session.user.id);
    return {
      loading: cached === null,
      session,
      user: session.user,
      profile: cached,
      role: roleOf(cached, session.user),
    };
  }

  private set(next: AuthState): void {
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}
