import { createClient } from '@supabase/supabase-js';
import type { Temporal } from 'temporal-polyfill';

/**
 * The server's recurring jobs, run now and then every `intervalMs`, the way a scheduler does
 * on hosted Supabase (pg_cron, supabase/functions/README.md):
 * - expiry: marks unpaid appointments whose time has passed as 'expirado' (CONTRACT.md
 *   "Expiry"), public.expire_unpaid_appointments() through /rest/v1;
 * - reminders: the function send-appointment-reminders e-mails the reminders that are due.
 * Both run with the service key. A failed run is reported and retried at the next tick.
 */
export type SchedulerOptions = {
  url: string;
  serviceRoleKey: string;
  intervalMs?: number;
  /** The clock reminders are due by; the database's own when absent (tests move it). */
  clock?: () => Temporal.Instant;
  onError?: (message: string) => void;
};

/** A client acting as the service role, as a scheduler calls the API. */
export function schedulerClient(url: string, serviceRoleKey: string) {
  return createClient(url, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}
type SchedulerClient = ReturnType<typeof schedulerClient>;

async function expireUnpaid(admin: SchedulerClient): Promise<string | undefined> {
  const { error } = await admin.rpc('expire_unpaid_appointments');
  return error ? `expire_unpaid_appointments: ${error.message}` : undefined;
}

async function sendReminders(
  admin: SchedulerClient,
  now: Temporal.Instant | undefined,
): Promise<string | undefined> {
  const answer: { error: unknown } = await admin.functions.invoke<unknown>(
    'send-appointment-reminders',
    { body: now ? { now: now.toString() } : {} },
  );
  const error = answer.error;
  return error instanceof Error ? `send-appointment-reminders: ${error.message}` : undefined;
}

/** One tick of every job; resolves with the failures (empty when all went well). */
export async function runScheduledJobs(
  admin: SchedulerClient,
  now?: Temporal.Instant,
): Promise<string[]> {
  const results = await Promise.all([expireUnpaid(admin), sendReminders(admin, now)]);
  return results.filter((r): r is string => r !== undefined);
}

/** Starts the jobs; returns a stop function. */
export function startScheduler(opts: SchedulerOptions): () => void {
  const admin = schedulerClient(opts.url, opts.serviceRoleKey);
  const run = async () => {
    for (const message of await runScheduledJobs(admin, opts.clock?.())) opts.onError?.(message);
  };
  void run();
  const timer = setInterval(() => void run(), opts.intervalMs ?? 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
