import { env } from './config.ts';
import type { RestEndpoint } from './rest-read.ts';
import type { AppSupabaseClient } from './supabase.ts';

/**
 * The REST endpoint of a screen's first read: the app's, or a test's, whose client given in
 * context (a platform instance of its own) names its URL and key in supabase-js's protected
 * `supabaseUrl`/`supabaseKey`.
 */
export function restEndpointOf(client: AppSupabaseClient | null): RestEndpoint {
  if (!client) return { url: env.supabaseUrl, key: env.supabaseAnonKey };
  const named = client as unknown as { supabaseUrl: string; supabaseKey: string };
  return { url: named.supabaseUrl, key: named.supabaseKey };
}
