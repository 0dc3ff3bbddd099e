import { createClient } from '@supabase/supabase-js';
import { requireEnv, type Result } from './http.ts';

function connect(url: string, key: string) {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

export type ServiceClient = ReturnType<typeof connect>;

/** A client acting as the service role, from the variables every Supabase function receives. */
export function serviceClient(): Result<ServiceClient> {
  const url = requireEnv('SUPABASE_URL');
  if (!url.ok) return url;
  const key = requireEnv('SUPABASE_SERVICE_ROLE_KEY');
  if (!key.ok) return key;
  return { ok: true, value: connect(url.value, key.value) };
}
