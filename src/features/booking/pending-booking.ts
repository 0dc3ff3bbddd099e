import * as v from 'valibot';
import { bookingDetailsSchema, type BookingDetails } from '@/domain/schemas/booking.ts';

/**
 * The slot a visitor picked before signing in (docs/product-rules.md §4 "Booking flow", step 1). Kept in
 * sessionStorage so it survives the login modal, a sign-up confirmation in the same tab or a
 * reload, and is gone when the tab closes.
 */
const KEY = 'saude-ja:pending-booking';

export function rememberBooking(details: BookingDetails): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(details));
  } catch {
    // Storage blocked: the choice only lives until the modal closes.
  }
}

/** The remembered choice, or null when there is none or it no longer validates. */
export function readRememberedBooking(): BookingDetails | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const parsed = v.safeParse(bookingDetailsSchema, JSON.parse(raw));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

export function forgetRememberedBooking(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing was stored.
  }
}
