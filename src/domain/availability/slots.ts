import type { Temporal } from 'temporal-polyfill';
import { diaSemana } from '../time/display.ts';
import { slotKey } from '../time/slot-key.ts';
import { formatWallTime } from '../time/wall-time.ts';
import { saoPauloInstant } from '../time/zone.ts';
import { blockRange, slotStartMinutes, wallTimeFromMinutes } from './block.ts';
import type { BlockRange, WeeklyBlock } from './block.ts';
import { overlapsBooking } from './booked.ts';
import type { BookedInterval } from './booked.ts';
import { MIN_NOTICE_MINUTES, SLOT_DURATION_MINUTES } from './constants.ts';

export type Slot = {
  /** São Paulo wall clock 'yyyy-MM-ddTHH:mm:ss', the booked-slot map key. */
  key: string;
  start: Temporal.Instant;
  end: Temporal.Instant;
  /** The São Paulo day the slot belongs to. */
  date: Temporal.PlainDate;
  /** 'HH:mm' in São Paulo. */
  time: string;
  isBooked: boolean;
};

function validRanges(blocks: readonly WeeklyBlock[]): BlockRange[] {
  return blocks.flatMap((block) => blockRange(block) ?? []);
}

/**
 * All slots of the weekly blocks over `days` São Paulo days starting at `from`, ordered by start,
 * one per start even when blocks overlap. Wall times that never existed (DST start, before 2019)
 * are skipped. None is marked booked; see markBooked.
 */
export function expandBlocks(
  blocks: readonly WeeklyBlock[],
  from: Temporal.PlainDate,
  days: number,
): Slot[] {
  const ranges = validRanges(blocks);
  const slots = new Map<string, Slot>();
  for (let offset = 0; offset < days; offset += 1) {
    const date = from.add({ days: offset });
    for (const range of ranges) {
      if (range.diaSemana !== diaSemana(date)) continue;
      for (const minute of slotStartMinutes(range, SLOT_DURATION_MINUTES)) {
        const wallTime = wallTimeFromMinutes(minute);
        const start = saoPauloInstant(date, wallTime);
        if (!start) continue;
        const key = slotKey(start);
        slots.set(key, {
          key,
          start,
          end: start.add({ minutes: SLOT_DURATION_MINUTES }),
          date,
          time: formatWallTime(wallTime),
          isBooked: false,
        });
      }
    }
  }
  return [...slots.values()].sort((a, b) => a.start.epochMilliseconds - b.start.epochMilliseconds);
}

/** Strictly more than MIN_NOTICE_MINUTES after now; a slot exactly 20 minutes away is gone. */
export function isBeyondMinimumNotice(start: Temporal.Instant, now: Temporal.Instant): boolean {
  return start.epochMilliseconds > now.add({ minutes: MIN_NOTICE_MINUTES }).epochMilliseconds;
}

/** A slot is unavailable when its 30 minutes overlap any booked appointment. */
export function markBooked(slots: readonly Slot[], booked: readonly BookedInterval[]): Slot[] {
  return slots.map((slot) => ({
    ...slot,
    isBooked: overlapsBooking(slot.start, slot.end, booked),
  }));
}
