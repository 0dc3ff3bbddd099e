// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Temporal } from 'temporal-polyfill';
import type { WeeklyBlock } from '@/domain/availability/block.ts';
import type { BookedInterval } from '@/domain/availability/booked.ts';
import type { Slot } from '@/domain/availability/slots.ts';
import { AvailabilityGrid, GRID_TEXTS, type AvailabilityGridProps } from './availability-grid.tsx';

afterEach(cleanup);

/** Monday 23/11/2026, 09:00 in São Paulo. */
const NOW = Temporal.Instant.from('2026-11-23T12:00:00Z');
/** Mondays 10:00–14:00 every 30 min: eight slots; Tuesdays 10:00–11:00: two. */
const BLOCKS: WeeklyBlock[] = [
  { dia_semana: 1, hora_inicio: '10:00:00', hora_fim: '14:00:00', intervalo_em_minutos: 30 },
  { dia_semana: 2, hora_inicio: '10:00:00', hora_fim: '11:00:00', intervalo_em_minutos: 30 },
];

function renderGrid(props: Partial<AvailabilityGridProps> = {}) {
  const onSelect = vi.fn<(slot: Slot) => void>();
  render(
    <AvailabilityGrid
      loading={false}
      fallback={false}
      blocks={BLOCKS}
      booked={[]}
      now={NOW}
      onSelect={onSelect}
      {...props}
    />,
  );
  return { onSelect };
}

const day = (name: string) => within(screen.getByRole('list', { name }));

describe('AvailabilityGrid', () => {
  it('shows four days from today, with the weekday short name and dd/MM', () => {
    renderGrid();
    expect(screen.getByText(GRID_TEXTS.heading)).toBeTruthy();
    for (const label of ['Hoje', 'ter.', 'qua.', 'qui.'])
      expect(screen.getByText(label)).toBeTruthy();
    for (const date of ['23/11', '24/11', '25/11', '26/11'])
      expect(screen.getByText(date)).toBeTruthy();
    // Wednesday and Thursday have no block.
    expect(screen.getAllByText('Sem horários')).toHaveLength(2);
  });

  it('collapses a day to four slots until "Ver mais horários", and back with "Ver menos"', () => {
    renderGrid();
    const today = day('Hoje 23/11');
    expect(today.getAllByRole('button').map((b) => b.textContent)).toEqual([
      '10:00',
      '10:30',
      '11:00',
      '11:30',
    ]);
    fireEvent.click(screen.getByRole('button', { name: GRID_TEXTS.showMore }));
    expect(day('Hoje 23/11').getAllByRole('button')).toHaveLength(8);
    fireEvent.click(screen.getByRole('button', { name: GRID_TEXTS.showLess }));
    expect(day('Hoje 23/11').getAllByRole('button')).toHaveLength(4);
    // Tuesday has only two slots: no toggle of its own.
    expect(screen.getAllByRole('button', { name: GRID_TEXTS.showMore })).toHaveLength(1);
  });

  it('pages four days at a time; "previous" is disabled on the first page', () => {
    renderGrid();
    const previous = screen.getByRole('button', { name: GRID_TEXTS.previous });
    expect((previous as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: GRID_TEXTS.next }));
    for (const date of ['27/11', '28/11', '29/11', '30/11'])
      expect(screen.getByText(date)).toBeTruthy();
    expect(screen.queryByText('Hoje')).toBeNull();
    expect(day('seg. 30/11').getAllByRole('button')).toHaveLength(4);
    expect((previous as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(previous);
    expect(screen.getByText('Hoje')).toBeTruthy();
  });

  it('drops slots within the 20-minute notice', () => {
    renderGrid({ now: Temporal.Instant.from('2026-11-23T13:10:00Z') });
    // 10:10 in São Paulo: 10:30 starts in 20 minutes exactly, so 11:00 is the first offered.
    expect(day('Hoje 23/11').getAllByRole('button')[0]?.textContent).toBe('11:00');
  });

  it('disables a booked slot (overlap, not only equal starts) with the "Horário indisponível" tooltip', async () => {
    vi.useFakeTimers();
    try {
      const booked: BookedInterval[] = [
        {
          start: Temporal.Instant.from('2026-11-23T13:45:00Z'),
          end: Temporal.Instant.from('2026-11-23T14:15:00Z'),
        },
      ];
      const { onSelect } = renderGrid({ booked });
      const taken = day('Hoje 23/11').getAllByRole('button', { name: /Horário indisponível/ });
      expect(taken.map((b) => b.textContent)).toEqual(['10:30', '11:00']);
      expect(taken.every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
      fireEvent.click(taken[0]!);
      expect(onSelect).not.toHaveBeenCalled();

      const trigger = taken[0]!.parentElement!;
      const open = () => [...document.querySelectorAll('[role="tooltip"][data-state="open"]')];
      fireEvent.pointerMove(trigger, { pointerType: 'mouse' });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(50);
      });
      expect(open()).toHaveLength(0);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(50);
      });
      expect(open().map((tip) => tip.textContent)).toEqual([GRID_TEXTS.booked]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('hands the picked slot to onSelect', () => {
    const { onSelect } = renderGrid();
    fireEvent.click(day('ter. 24/11').getByRole('button', { name: '10:30' }));
    expect(onSelect).toHaveBeenCalledOnce();
    expect(onSelect.mock.calls[0]![0].start.toString()).toBe('2026-11-24T13:30:00Z');
  });

  it('shows a skeleton while loading, without navigation', () => {
    renderGrid({ loading: true });
    expect(screen.getByTestId('grid-skeleton')).toBeTruthy();
    expect(screen.queryByRole('button', { name: GRID_TEXTS.next })).toBeNull();
  });

  it('explains an empty schedule, and a schedule that could not load', () => {
    renderGrid({ blocks: [] });
    expect(screen.getByText(GRID_TEXTS.emptyTitle)).toBeTruthy();
    expect(screen.getByText(GRID_TEXTS.emptyAdjusting)).toBeTruthy();
    cleanup();
    renderGrid({ fallback: true });
    expect(screen.getByText(GRID_TEXTS.emptyTitle)).toBeTruthy();
    expect(screen.getByText(GRID_TEXTS.emptyFallback)).toBeTruthy();
    expect(screen.queryByRole('button', { name: '10:00' })).toBeNull();
  });
});
