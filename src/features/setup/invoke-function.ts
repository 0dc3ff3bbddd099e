import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import { ERROR_MESSAGES } from '@/domain/errors/messages.ts';
import { isRequestTimeout } from '@/lib/request-deadline.ts';

/** A function's answer as the pages need it: the HTTP status (0 = not reached) and the body. */
export type FunctionAnswer = { status: number; body: unknown };

const SETUP_TOKEN_KEY = 'saudeja:setup-token';

/** The administrator types the setup token once per tab; it never leaves sessionStorage. */
export function rememberedSetupToken(): string | null {
  return sessionStorage.getItem(SETUP_TOKEN_KEY);
}

export function rememberSetupToken(token: string | null): void {
  if (token) sessionStorage.setItem(SETUP_TOKEN_KEY, token);
  else sessionStorage.removeItem(SETUP_TOKEN_KEY);
}

/**
 * Calls an edge function and returns its answer whatever the status: supabase-js reports a
 * non-2xx answer as an error whose `context` is the Response, and a network failure without one.
 */
export async function invokeFunction(
  client: SupabaseClient,
  name: string,
  opts: { body?: Record<string, unknown>; setupToken?: string | null } = {},
): Promise<FunctionAnswer> {
  const headers: Record<string, string> = {};
  if (opts.setupToken) headers['x-setup-token'] = opts.setupToken;
  const result = await client.functions.invoke<unknown>(name, { body: opts.body ?? {}, headers });
  const error: unknown = result.error;
  if (!error) return { status: 200, body: result.data };
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response;
    const body: unknown = await response.json().catch(() => null);
    return { status: response.status, body };
  }
  console.error(`Function ${name} could not be reached.`, error);
  // The page shows the body's message as the failure's detail.
  return { status: 0, body: isRequestTimeout(error) ? { message: ERROR_MESSAGES.timeout } : null };
}
