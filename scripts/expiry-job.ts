import { createClient } from '@supabase/supabase-js';

/**
 * Marks unpaid appointments whose time has passed as 'expirado' (CONTRACT.md "Expiry"):
 * calls public.expire_unpaid_appointments() through /rest/v1 with the service key, now and
 * then every `intervalMs`, the same way a scheduler would on hosted Supabase. Returns a stop
 * function. A failed run is reported and retried at the next tick.
 */
export function startExpiryJob(opts: {
  url: string;
  serviceRoleKey: string;
  intervalMs?: number;
  onError?: (message: string) => void;
}): () => void {
  const admin = createClient(opts.url, opts.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  const run = async () => {
    const { error } = await admin.rpc('expire_unpaid_appointments');
    if (error) opts.onError?.(`expire_unpaid_appointments: ${error.message}`);
  };
  void run();
  const timer = setInterval(() => void run(), opts.intervalMs ?? 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
