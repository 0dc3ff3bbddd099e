/** Every consultation lasts 30 minutes, whatever the block's step (spec §9). */
export const SLOT_DURATION_MINUTES = 30;

/** A slot is offered only if it starts more than this after now, in São Paulo (spec §5). */
export const MIN_NOTICE_MINUTES = 20;

export const GRID_DAYS_PER_PAGE = 4;

/** Slots shown per day before 'Ver mais horários'. */
export const GRID_SLOTS_COLLAPSED = 4;
