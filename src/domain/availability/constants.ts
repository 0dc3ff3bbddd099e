export { MIN_NOTICE_MINUTES, SLOT_DURATION_MINUTES } from '../rules/booking.ts';

export const GRID_DAYS_PER_PAGE = 4;

/** Slots shown per day before 'Ver mais horários'. */
export const GRID_SLOTS_COLLAPSED = 4;
