import { startFirstSchedule } from '@/features/booking/first-schedule.ts';
import { BOOKING_PATH } from './booking-path.ts';

/**
 * Work a page opened directly can start before the app has been evaluated. This module is the
 * entry's first import (src/main.tsx), so it runs before React, the router and the rest of the
 * app — a few hundred milliseconds of script on a slow phone, during which the booking page's
 * own code and its first response (first-schedule.ts) are already on the wire instead of
 * waiting for the router to match the path and the page to render.
 */

/** The booking page's code; the route table loads it through the same import. */
export const loadBookingRoute = () => import('./routes/booking.tsx');

if (window.location.pathname === BOOKING_PATH) {
  startFirstSchedule();
  void loadBookingRoute();
}
