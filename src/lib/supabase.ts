import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { env } from './config.ts';
import { withDeadline } from './request-deadline.ts';
import { announceSupabase } from './supabase-created.ts';

export type AppSupabaseClient = SupabaseClient;

let client: AppSupabaseClient | undefined;

/**
 * The app's single supabase-js client, created on first use so screens that never reach the
 * backend (and their tests) need no endpoint configured. Implicit flow: the confirmation and
 * recovery links carry tokens in the URL fragment and sign the person in on whichever page
 * they land. Every request it sends gives up after 6 s (docs/product-rules.md §9 "requests")
 * unless it carries a deadline of its own, as the replica's do.
 */
export function getSupabase(): AppSupabaseClient {
  if (client) return client;
  client = createClient(env.supabaseUrl, env.supabaseAnonKey, {
    auth: {
      flowType: 'implicit',
      detectSessionInUrl: true,
      persistSession: true,
      autoRefreshToken: true,
    },
    global: { fetch: withDeadline((input, init) => fetch(input, init)) },
  });
  announceSupabase(client);
  return client;
}
