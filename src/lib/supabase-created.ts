import type { SupabaseClient } from '@supabase/supabase-js';

type Listener = (client: SupabaseClient) => void;

let created: SupabaseClient | null = null;
const listeners = new Set<Listener>();

/**
 * Called by lib/supabase.ts when it creates the app's client. A module of its own, free of
 * supabase-js, so the app shell (the session provider) hears of a client a screen created —
 * the login form, say — without bundling supabase-js into the first screen's JavaScript.
 */
export function announceSupabase(client: SupabaseClient): void {
  created = client;
  for (const listener of listeners) listener(client);
}

/** Runs `listener` with the app's client once it exists (at once if it does). Returns the stop. */
export function whenSupabaseCreated(listener: Listener): () => void {
  if (created) {
    listener(created);
    return () => undefined;
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}
