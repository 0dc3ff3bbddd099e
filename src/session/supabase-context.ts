import { useContext } from 'react';
import { getSupabase, type AppSupabaseClient } from '@/lib/supabase.ts';
import { SupabaseContext } from './client-context.ts';

export { SupabaseContext };

/**
 * The client for a screen that talks to the backend: the one in context, else the app's
 * single client, created now (this module bundles supabase-js with the screen's chunk).
 */
export function useSupabase(): AppSupabaseClient {
  return useContext(SupabaseContext) ?? getSupabase();
}
