import { memo, useMemo, useState } from 'react';
import type { Temporal } from 'temporal-polyfill';
import { css, cx } from 'styled-system/css';
import type { WeeklyBlock } from '@/domain/availability/block.ts';
import type { BookedInterval } from '@/domain/availability/booked.ts';
import {
  buildAvailabilityGrid,
  hasHiddenSlots,
  nextPage,
  NO_SLOTS_LABEL,
  previousPage,
  visibleSlots,
  type GridDay,
} from '@/domain/availability/grid.ts';
import type { Slot } from '@/domain/availability/slots.ts';
import { Skeleton } from '@/ui/skeleton.tsx';
import { Tooltip } from '@/ui/tooltip.tsx';

export const GRID_TEXTS = {
  heading: 'HORA MARCADA',
  showMore: 'Ver mais horários',
  showLess: 'Ver menos',
  booked: 'Horário indisponível',
  emptyTitle: 'Sem horários disponíveis',
  emptyAdjusting: 'Este médico está ajustando seus horários. Volte mais tarde.',
  emptyFallback: 'A agenda do médico não pôde ser carregada.',
  previous: 'Dias anteriores',
  next: 'Próximos dias',
} as const;

export type AvailabilityGridProps = {
  loading: boolean;
  /** The schedule could not be loaded (docs/product-rules.md §2 "fallback mode"). */
  fallback: boolean;
  blocks: readonly WeeklyBlock[];
  booked: readonly BookedInterval[];
  now: Temporal.Instant;
  onSelect: (slot: Slot) => void;
  /** The slot whose booking is being created; every slot waits meanwhile. */
  selectingKey?: string | null;
  /** Where the rows came from ('first' response or 'replica'), shown as `data-source`. */
  source?: 'first' | 'replica';
};

const heading = css({
  fontSize: 'xs',
  fontWeight: 'bold',
  letterSpacing: '0.08em',
  color: 'fg.muted',
});

const navButton = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  w: '9',
  h: '9',
  flexShrink: 0,
  borderRadius: 'full',
  borderWidth: '1px',
  borderColor: 'border',
  bg: 'bg.surface',
  color: 'primary.text',
  cursor: 'pointer',
  _hover: { _enabled: { bg: 'primary.subtle' } },
  _disabled: { opacity: 0.4, cursor: 'not-allowed' },
  _focusVisible: { outline: '3px solid', outlineColor: 'focus' },
});

const columns = css({
  flex: '1',
  minW: '0',
  display: 'grid',
  gridTemplateColumns: 'repeat(4, minmax(0, 1fr))',
  gap: { base: '1', sm: '2' },
});

// Compact on phones: four day columns of a 320 px screen are about 55 px wide, and 'HH:mm'
// at the smaller size leaves room on both sides; the 36 px height keeps the touch target.
const slotButton = css({
  w: 'full',
  h: '9',
  borderRadius: 'md',
  fontSize: { base: '0.8125rem', sm: 'sm' },
  fontWeight: 'semibold',
  bg: 'primary.subtle',
  color: 'primary.text',
  borderWidth: '1px',
  borderColor: 'primary.muted',
  cursor: 'pointer',
  fontVariantNumeric: 'tabular-nums',
  _hover: { _enabled: { bg: 'primary', color: 'primary.fg' } },
  _focusVisible: { outline: '3px solid', outlineColor: 'focus' },
  _disabled: { cursor: 'not-allowed' },
});

const bookedSlot = css({
  bg: 'bg.subtle',
  color: 'slate.500',
  borderColor: 'border',
  textDecoration: 'line-through',
});

function Chevron({ direction }: { direction: 'left' | 'right' }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none">
      <path
        d={direction === 'left' ? 'M15 18l-6-6 6-6' : 'M9 6l6 6-6 6'}
        stroke="currentColor"
        strokeWidth="2.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function SlotButton({
  slot,
  onSelect,
  busy,
}: {
  slot: Slot;
  onSelect: (slot: Slot) => void;
  busy: boolean;
}) {
  if (slot.isBooked) {
    return (
      <Tooltip content={GRID_TEXTS.booked}>
        <span tabIndex={0} className={css({ display: 'block', borderRadius: 'md' })}>
          <button
            type="button"
            disabled
            aria-label={`${slot.time} - ${GRID_TEXTS.booked}`}
            className={cx(slotButton, bookedSlot)}
          >
            {slot.time}
          </button>
        </span>
      </Tooltip>
    );
  }
  return (
    <button
      type="button"
      className={slotButton}
      disabled={busy}
      aria-busy={busy || undefined}
      onClick={() => onSelect(slot)}
    >
      {slot.time}
    </button>
  );
}

function DayColumn({
  day,
  onSelect,
  selectingKey,
}: {
  day: GridDay;
  onSelect: (slot: Slot) => void;
  selectingKey: string | null;
}) {
  const [expanded, setExpanded] = useState(false);
  const shown = visibleSlots(day.slots, expanded);
  return (
    <li className={css({ display: 'flex', flexDirection: 'column', gap: '1.5', minW: 0 })}>
      <div className={css({ textAlign: 'center', lineHeight: 'tight', mb: '1' })}>
        <p className={css({ fontWeight: 'bold', fontSize: 'sm' })}>{day.label}</p>
        <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>{day.dayMonth}</p>
      </div>
      {day.slots.length === 0 ? (
        <p className={css({ fontSize: 'xs', color: 'fg.muted', textAlign: 'center', py: '2' })}>
          {NO_SLOTS_LABEL}
        </p>
      ) : (
        <ul
          aria-label={`${day.label} ${day.dayMonth}`}
          className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}
        >
          {shown.map((slot) => (
            <li key={slot.key}>
              <SlotButton slot={slot} onSelect={onSelect} busy={selectingKey !== null} />
            </li>
          ))}
        </ul>
      )}
      {hasHiddenSlots(day.slots) && (
        <button
          type="button"
          aria-expanded={expanded}
          onClick={() => setExpanded((e) => !e)}
          className={css({
            // A phone's day column is about 52 px wide: a smaller size and balanced wrapping
            // keep the label to two even lines ('Ver mais' / 'horários'), not three.
            fontSize: { base: '0.625rem', sm: 'xs' },
            letterSpacing: { base: '-0.01em', sm: 'normal' },
            lineHeight: 'tight',
            textWrap: 'balance',
            overflowWrap: 'normal',
            fontWeight: 'semibold',
            color: 'primary.text',
            textDecoration: 'underline',
            cursor: 'pointer',
            py: '1',
          })}
        >
          {expanded ? GRID_TEXTS.showLess : GRID_TEXTS.showMore}
        </button>
      )}
    </li>
  );
}

function GridSkeleton() {
  return (
    <div data-testid="grid-skeleton" className={columns} aria-hidden="true">
      {Array.from({ length: 4 }, (_, i) => (
        <div key={i} className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
          <Skeleton className={css({ h: '8', mb: '1' })} />
          {Array.from({ length: 4 }, (_, j) => (
            <Skeleton key={j} className={css({ h: '9' })} />
          ))}
        </div>
      ))}
    </div>
  );
}

/**
 * docs/product-rules.md §2 "Availability grid": four days per page, four slots per day until
 * expanded. Memoised: its parent re-renders on every sync status change (many during the
 * replica's first sync), and each redraw of its slots and tooltips for nothing is a slow
 * phone's main thread taken from the person.
 */
export const AvailabilityGrid = memo(function AvailabilityGrid({
  loading,
  fallback,
  blocks,
  booked,
  now,
  onSelect,
  selectingKey = null,
  source,
}: AvailabilityGridProps) {
  const [page, setPage] = useState(0);
  const grid = useMemo(
    () => buildAvailabilityGrid({ blocks, booked, now, page }),
    [blocks, booked, now, page],
  );
  const empty = fallback || blocks.length === 0;

  let body;
  if (loading) body = <GridSkeleton />;
  else if (empty) {
    body = (
      <div
        role="status"
        className={css({
          flex: '1',
          textAlign: 'center',
          py: '6',
          px: '3',
          borderRadius: 'lg',
          bg: 'bg.subtle',
        })}
      >
        <p className={css({ fontWeight: 'semibold' })}>{GRID_TEXTS.emptyTitle}</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '1' })}>
          {fallback ? GRID_TEXTS.emptyFallback : GRID_TEXTS.emptyAdjusting}
        </p>
      </div>
    );
  } else {
    body = (
      <ul className={columns}>
        {grid.days.map((day) => (
          <DayColumn
            key={`${grid.page}:${day.date.toString()}`}
            day={day}
            onSelect={onSelect}
            selectingKey={selectingKey}
          />
        ))}
      </ul>
    );
  }

  const showNav = !loading && !empty;
  // Previous/next sit above the days, beside the heading, so the four columns get the whole
  // width of the card, a 320 px phone's included (docs/product-rules.md §2 "Availability grid").
  return (
    <section aria-label={GRID_TEXTS.heading} data-source={source} className={css({ mt: '2' })}>
      <div
        className={css({
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: '2',
          minH: '9',
        })}
      >
        <h3 className={heading}>{GRID_TEXTS.heading}</h3>
        {showNav && (
          <div className={css({ display: 'flex', gap: '2' })}>
            <button
              type="button"
              className={navButton}
              aria-label={GRID_TEXTS.previous}
              disabled={!grid.canGoPrevious}
              onClick={() => setPage(previousPage)}
            >
              <Chevron direction="left" />
            </button>
            <button
              type="button"
              className={navButton}
              aria-label={GRID_TEXTS.next}
              onClick={() => setPage(nextPage)}
            >
              <Chevron direction="right" />
            </button>
          </div>
        )}
      </div>
      <div className={css({ display: 'flex', mt: '3' })}>{body}</div>
    </section>
  );
});
