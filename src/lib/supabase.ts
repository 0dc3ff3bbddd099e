import { createClient } from '@supabase/supabase-js';
import { env } from './config.ts';

/**
 * The app's single supabase-js client. Implicit flow, so the confirmation and recovery links
 * (which carry tokens in the URL fragment) sign the person in on whichever page they land.
 */
export const supabase = createClient(env.supabaseUrl, env.supabaseAnonKey, {
  auth: {
    flowType: 'implicit',
    detectSessionInUrl: true,
    persistSession: true,
    autoRefreshToken: true,
  },
});

export type AppSupabaseClient = typeof supabase;
