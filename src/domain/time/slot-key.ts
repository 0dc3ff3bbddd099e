import type { Temporal } from 'temporal-polyfill';
import { toSaoPaulo } from './zone.ts';

/**
 * The booked-slot map key: São Paulo wall clock 'yyyy-MM-ddTHH:mm:ss'. Keys from the grid and
 * from stored appointments (any offset, any precision) meet on the same string.
 */
export function slotKey(instant: Temporal.Instant): string {
  return toSaoPaulo(instant).toPlainDateTime().toString({ smallestUnit: 'second' });
}
