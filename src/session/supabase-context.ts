import { createContext, useContext } from 'react';
import { getSupabase, type AppSupabaseClient } from '@/lib/supabase.ts';

/**
 * The supabase-js client screens talk to: the app's single client, unless a test renders the
 * screens against a client of its own platform instance.
 */
export const SupabaseContext = createContext<AppSupabaseClient | null>(null);

export function useSupabase(): AppSupabaseClient {
  return useContext(SupabaseContext) ?? getSupabase();
}
