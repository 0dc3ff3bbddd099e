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
type Request<R> = PromiseLike<R> & { setHeader(name: string, value: string): PromiseLike<R> };

/**
 * Sends one request as the session's user. The session is checked right before each request,
 * not once per sync step: a step makes several, and the session can lapse between them. The
 * token then travels in the request itself, because supabase-js reads its session once more
 * when it sends, and would put the anon key there had the session lapsed in between.
 */
export async function sendAs<R>(session: Session, request: Request<R>): Promise<R> {
  const token = await session();
  const result = await (token === null
    ? request
    : request.setHeader('Authorization', `Bearer ${token}`));
  if ((result as { status?: unknown }).status === 401) session.stalled = true;
  return result;
}
