import { startEarlyReads } from '@/features/booking/first-schedule-requests.ts';
import { BOOKING_PATH } from './page-paths.ts';

/**
 * Compiled on its own and inlined in index.html (vite.config.ts), so it runs while the page
 * is still being parsed: a visitor opening the booking page has its three public reads on the
 * wire before the app's JavaScript has even downloaded, let alone run (on a slow phone, one to
 * two seconds earlier). The page takes them over (first-schedule.ts, useFirstSchedule). Only
 * the public endpoint and key are needed, and both are in the app's bundle already.
 */
if (window.location.pathname === BOOKING_PATH && navigator.onLine) {
  const endpoint = {
    url: import.meta.env.VITE_SUPABASE_URL as string,
    key: import.meta.env.VITE_SUPABASE_ANON_KEY as string,
  };
  startEarlyReads(endpoint, Date.now());
}
