import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Device,
  createDoctor,
  createPatient,
  device,
  expectExactlyOnce,
  platformForFile,
  settled,
  slot,
  startPlatform,
  until,
} from '../../sync/testing/index.ts';

/**
 * Token refreshes against the real auth server with the unmodified supabase-js and the default
 * one-hour tokens (docs/sessions.md). The clock is the test's: every Date in this process
 * (supabase-js, the platform's JWTs) follows it, and the database's own clock is moved with it
 * by ageing the session's refresh tokens.
 */
const t = platformForFile();
afterEach(() => {
  vi.useRealTimers();
});

const isRefresh = (url: string) => url.includes('/auth/v1/token?grant_type=refresh_token');

function sessionIdOf(accessToken: string | undefined): unknown {
  return decodeJwt(accessToken ?? '').session_id;
}

async function storedSession(device: Device) {
  const { data } = await device.client.auth.getSession();
  return data.session;
}

/** The clock moves `ms` ahead, for this process and for the session's rows in the database. */
async function advance(ms: number, sessionId: unknown): Promise<void> {
  vi.setSystemTime(Date.now() + ms);
  await t.platform.ctx.db.query(
    `update auth.refresh_tokens
        set created_at = created_at - $2 * interval '1 millisecond',
            updated_at = updated_at - $2 * interval '1 millisecond'
      where session_id = $1`,
    [sessionId, ms],
  );
}

describe('token refresh', () => {
  it('a refresh whose reply is lost, then five minutes without network, then the network back: the same session, no sign-out, the queue sent once', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    const doctor = await createDoctor(t);
    const phone = await device(t, { role: 'paciente' });
    const events: string[] = [];
    phone.client.auth.onAuthStateChange((event) => events.push(event));
    const before = await storedSession(phone);
    const sessionId = sessionIdOf(before?.access_token);

    // An hour on, the token is inside supabase-js's refresh margin. The server rotates the
    // refresh token and answers; the answer is lost and the connection goes with it.
    vi.setSystemTime(Date.now() + 3_600_000 - 60_000);
    phone.net.loseNextReply(isRefresh, () => phone.offline());
    const refreshing = phone.client.auth.refreshSession();
    await until(phone.online$, (online) => !online);
    // Five minutes without network: supabase-js's retries give up after 30 s and the session
    // stays stored; its 60 s cooldown passes too.
    await advance(31_000, sessionId);
    const { error } = await refreshing;
    expect(error?.name).toBe('AuthRetryableFetchError');
    await advance(5 * 60_000 - 31_000, sessionId);
    expect(phone.net.lost).toEqual([expect.stringContaining('grant_type=refresh_token')]);
    expect(phone.hasStoredSession()).toBe(true);

    const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(2) });
    if (!booked.ok) throw new Error('booking was not queued');

    phone.online();
    await settled(phone);
    await expectExactlyOnce(t, booked.value.mutationId);
    const after = await storedSession(phone);
    expect(sessionIdOf(after?.access_token)).toBe(sessionId);
    expect(after?.refresh_token).not.toBe(before?.refresh_token);
    expect(events).not.toContain('SIGNED_OUT');
    expect(phone.hasStoredSession()).toBe(true);
    // The device holds the session's live token, and nothing of the session was revoked
    // but the tokens it replaced.
    const { rows: tokens } = await t.platform.ctx.db.query<{ token: string; revoked: boolean }>(
      'select token, revoked from auth.refresh_tokens where session_id = $1 order by id',
      [sessionId],
    );
    expect(tokens.filter((r) => !r.revoked).map((r) => r.token)).toEqual([after?.refresh_token]);
  });

  it('[A4] a token supabase-js always counts as expiring (a short life on a hosted project, a clock far ahead) causes no refresh storm', async () => {
    // Forty-second tokens, as the deployment of the storm had: inside supabase-js's 90 s
    // margin from the moment they are issued, so every request refreshes first. `npm start`
    // refuses such a life (docs/sessions.md §3); a hosted project may still have one.
    const short = await startPlatform({ config: { jwtExpiry: 40 } });
    const phone = new Device(short);
    try {
      const patient = await createPatient(short);
      const id = await phone.signIn(patient.email);
      await phone.start({ id, role: 'paciente' });
      await phone.sync.awaitInitialSync();
      await phone.sync.awaitInSync();
      const idleFrom = phone.net.requests.length;
      // Quiet seconds: before A4 each refresh resynced, each resync's requests refreshed again.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const idle = phone.net.requests.slice(idleFrom);
      expect(idle.filter(isRefresh).length).toBeLessThanOrEqual(1);
      expect(idle.length).toBeLessThanOrEqual(2);
    } finally {
      await phone.stop();
      await short.stop();
    }
  }, 90_000);
});
