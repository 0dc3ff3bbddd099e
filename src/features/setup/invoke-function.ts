import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import type { AppError } from '@/domain/errors/app-error.ts';
import { mapFunctionAnswer, mapServerError } from '@/domain/errors/map-server-error.ts';

/**
 * A function's answer as the pages need it: the HTTP status (0 = not reached), the body, and
 * for a non-2xx answer or none the failure, mapped (src/domain/errors/map-server-error.ts).
 */
export type FunctionAnswer = { status: number; body: unknown; error: AppError | null };

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
  if (!error) return { status: 200, body: result.data, error: null };
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response;
    const body: unknown = await response.json().catch(() => null);
    return { status: response.status, body, error: mapFunctionAnswer(response.status, body) };
  }
  console.error(`Function ${name} could not be reached.`, error);
  return { status: 0, body: null, error: mapServerError(error) };
}
