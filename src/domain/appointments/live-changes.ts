import { isBookedStatus } from './status.ts';

/** What the doctor's list showed last time: appointment id → status on screen. */
export type ScheduleSnapshot = ReadonlyMap<string, string | null>;

export function scheduleSnapshot(
  appointments: readonly { id: string; status: string | null }[],
): ScheduleSnapshot {
  return new Map(appointments.map((a) => [a.id, a.status]));
}

/**
 * docs/product-rules.md §4 "Live updates": a slot was booked (an appointment not seen before, holding a slot)
 * or called off (one that held a slot is now cancelled). The snapshots hold what the screen
 * showed, queued changes included, so the doctor's own cancellation — cancelled on screen
 * before the server hears of it — is not announced back to them.
 */
export function isScheduleChange(before: ScheduleSnapshot, after: ScheduleSnapshot): boolean {
  for (const [id, status] of after) {
    const previous = before.get(id);
    if (previous === undefined) {
      if (status !== null && isBookedStatus(status)) return true;
    } else if (status === 'cancelado' && previous !== null && isBookedStatus(previous)) {
      return true;
    }
  }
  return false;
}
