/**
 * Open unpaid bookings a patient may hold (docs/architecture.md §3 "Holds and limits"): booked-status
 * appointments not yet paid whose time has not passed. The server enforces the same numbers
 * in `app_private.unpaid_booking_limits()` (supabase/migrations); tests/db/limits.test.ts
 * fails when the two disagree.
 */
export const MAX_UNPAID_BOOKINGS_PER_DOCTOR = 2;
export const MAX_UNPAID_BOOKINGS_TOTAL = 4;
