import type { Temporal } from 'temporal-polyfill';
import { formatDayMonth } from '../time/local-date.ts';
import { dayLabel } from '../time/display.ts';
import { saoPauloToday } from '../time/zone.ts';
import type { WeeklyBlock } from './block.ts';
import type { BookedInterval } from './booked.ts';
import { GRID_DAYS_PER_PAGE, GRID_SLOTS_COLLAPSED } from './constants.ts';
import { expandBlocks, isBeyondMinimumNotice, markBooked } from './slots.ts';
import type { Slot } from './slots.ts';

export const NO_SLOTS_LABEL = 'Sem horários';

export type GridDay = {
  date: Temporal.PlainDate;
  /** 'Hoje' or the abbreviated weekday ('seg.'). */
  label: string;
  /** 'dd/MM'. */
  dayMonth: string;
  /** Offered slots of the day, booked ones included (shown disabled). Empty → 'Sem horários'. */
  slots: Slot[];
};

export type AvailabilityGrid = {
  page: number;
  days: GridDay[];
  canGoPrevious: boolean;
};

export type AvailabilityGridInput = {
  blocks: readonly WeeklyBlock[];
  booked: readonly BookedInterval[];
  now: Temporal.Instant;
  /** 0 = the page starting today in São Paulo; each page moves GRID_DAYS_PER_PAGE days. */
  page: number;
};

export function gridPageStart(today: Temporal.PlainDate, page: number): Temporal.PlainDate {
  return today.add({ days: clampPage(page) * GRID_DAYS_PER_PAGE });
}

export function buildAvailabilityGrid(input: AvailabilityGridInput): AvailabilityGrid {
  const page = clampPage(input.page);
  const today = saoPauloToday(input.now);
  const from = gridPageStart(today, page);
  const offered = markBooked(
    expandBlocks(input.blocks, from, GRID_DAYS_PER_PAGE).filter((slot) =>
      isBeyondMinimumNotice(slot.start, input.now),
    ),
    input.booked,
  );
  const days = Array.from({ length: GRID_DAYS_PER_PAGE }, (_, offset) => {
    const date = from.add({ days: offset });
    return {
      date,
      label: dayLabel(date, today),
      dayMonth: formatDayMonth(date),
      slots: offered.filter((slot) => slot.date.equals(date)),
    };
  });
  return { page, days, canGoPrevious: page > 0 };
}

/** The slots a day column shows: the first GRID_SLOTS_COLLAPSED until 'Ver mais horários'. */
export function visibleSlots(slots: readonly Slot[], isExpanded: boolean): readonly Slot[] {
  return isExpanded ? slots : slots.slice(0, GRID_SLOTS_COLLAPSED);
}

/** Whether the day needs the 'Ver mais horários' / 'Ver menos' toggle. */
export function hasHiddenSlots(slots: readonly Slot[]): boolean {
  return slots.length > GRID_SLOTS_COLLAPSED;
}

export function previousPage(page: number): number {
  return Math.max(0, clampPage(page) - 1);
}

export function nextPage(page: number): number {
  return clampPage(page) + 1;
}

function clampPage(page: number): number {
  return Number.isInteger(page) && page > 0 ? page : 0;
}
