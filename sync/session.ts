import type { SupabaseClient } from '@supabase/supabase-js';
import type { SyncUser } from './engine-options.ts';
import { TransientSyncError } from './errors.ts';

/**
 * Resolves with the access token a request must carry: the signed-in user's own, or null for
 * a visitor (whose requests use the anon key). Throws a transient error while the signed-in
 * user's session is not usable (A1).
 */
export type Session = (() => Promise<string | null>) & {
  /**
   * Set when a request waited for a usable token (none, or one the server answered 401): the
   * next token refresh resumes the sync. A refresh that replaced a working token resumes
   * nothing, so refreshes never cause requests of their own (A4).
   */
  stalled: boolean;
};

/** A supabase-js query or RPC call, not yet sent: awaiting it sends it. */
type Request<R> = PromiseLike<R> & {
  setHeader(name: string, value: string): PromiseLike<R>;
  /** Absent from a `.maybeSingle()` read, which sets `replicationDeadline()` before it. */
  abortSignal?(signal: AbortSignal): Request<R>;
  retry?(enabled: boolean): Request<R>;
};

/**
 * The replica's requests wait longer than a screen's 6 s (docs/product-rules.md "Deliberate
 * differences"): a slow but living link must still finish a page of 1,000 rows, and a push
 * that runs out of time is only retried.
 */
export const REPLICATION_REQUEST_DEADLINE_MS = 60_000;

export function replicationDeadline(): AbortSignal {
  return AbortSignal.timeout(REPLICATION_REQUEST_DEADLINE_MS);
}

/**
 * Sends one request as the session's user. The session is checked right before each request,
 * not once per sync step: a step makes several, and the session can lapse between them. The
 * token then travels in the request itself, because supabase-js reads its session once more
 * when it sends, and would put the anon key there had the session lapsed in between.
 *
 * supabase-js retries a failed read three times on its own, 1 + 2 + 4 s apart. The engine has
 * its own retries (`retryTimeMs`, the outbox's backoff, a wake when the link comes back, L3),
 * so that wait would only hide a failure for 7 s and keep a pull asleep after the link is back.
 */
export async function sendAs<R>(session: Session, request: Request<R>): Promise<R> {
  const token = await session();
  const once = request.retry ? request.retry(false) : request;
  const timed = once.abortSignal ? once.abortSignal(replicationDeadline()) : once;
  const result = await (token === null
    ? timed
    : timed.setHeader('Authorization', `Bearer ${token}`));
  if ((result as { status?: unknown }).status === 401) session.stalled = true;
  return result;
}

/**
 * The session guard of `user`'s replica. A signed-in replica only talks to the server with
 * that user's session. When the token cannot be refreshed (offline, auth briefly down)
 * supabase-js falls back to the anon key, and a request made as anon would be refused for good
 * (a booking as 'not_patient', an edit by RLS): such attempts count as transient instead and
 * wait for the session (A1).
 */
export function sessionFor(supabase: SupabaseClient, user: SyncUser | null): Session {
  const session: Session = Object.assign(
    async () => {
      if (!user) return null;
      const { data } = await supabase.auth.getSession();
      if (!data.session || data.session.user.id !== user.id) {
        session.stalled = true;
        throw new TransientSyncError(
          {
            status: 401,
            code: 'no_session',
            message: 'no usable session',
            details: null,
            hint: null,
          },
          'auth',
        );
      }
      return data.session.access_token;
    },
    { stalled: false },
  );
  return session;
}
