import { createContext, useContext } from 'react';
import type { AppSupabaseClient } from '@/lib/supabase.ts';

/**
 * The supabase-js client screens talk to: a test's client of its own platform instance, or the
 * app's single client once the session provider has loaded it. Kept apart from
 * supabase-context.ts (whose `useSupabase` creates the client) so the app shell holds the
 * context without bundling supabase-js into the first screen.
 */
export const SupabaseContext = createContext<AppSupabaseClient | null>(null);

/** The client in context, null while the app's own one is not loaded yet. */
export function useProvidedSupabase(): AppSupabaseClient | null {
  return useContext(SupabaseContext);
}
