import { nextTask } from './next-task.ts';
import type { AppSupabaseClient } from './supabase.ts';

/**
 * The app's supabase-js client, loaded as a chunk of its own. The first screen paints without
 * it (the booking page reads its first response with plain fetch, first-schedule.ts); the
 * session provider asks for it after that paint, and screens that talk to the backend import
 * lib/supabase.ts directly.
 */
export async function loadSupabase(): Promise<AppSupabaseClient> {
  const { getSupabase } = await import('./supabase.ts');
  // supabase-js's modules are set up in the task that loaded them; the client (its auth and
  // Realtime parts) in the next one, rather than both in one long task.
  await nextTask();
  return getSupabase();
}

/**
 * supabase-js's default storage key for the session (`sb-<first label of the host>-auth-token`,
 * SupabaseClient's constructor), derived without loading supabase-js so the stored session is
 * read on the first render; supabase.test.ts checks it against a real client.
 */
export function defaultAuthStorageKey(supabaseUrl: string): string {
  return `sb-${new URL(supabaseUrl).hostname.split('.')[0]}-auth-token`;
}
