import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import type { WeeklyBlock } from './block.ts';
import { heldIntervals } from './booked.ts';
import type { HeldSlot } from './booked.ts';
import {
  buildAvailabilityGrid,
  gridPageStart,
  hasHiddenSlots,
  nextPage,
  previousPage,
  visibleSlots,
} from './grid.ts';
import { expandBlocks } from './slots.ts';

const everyDay: WeeklyBlock[] = [0, 1, 2, 3, 4, 5, 6].map((dia) => ({
  dia_semana: dia,
  hora_inicio: '08:00:00',
  hora_fim: '11:00:00',
  intervalo_em_minutos: 30,
}));

function grid(nowIso: string, page = 0, blocks = everyDay, booked: HeldSlot[] = []) {
  return buildAvailabilityGrid({
    blocks,
    booked: heldIntervals(booked),
    now: Temporal.Instant.from(nowIso),
    page,
  });
}

describe('buildAvailabilityGrid: days', () => {
  it.each([
    [
      'Monday morning in São Paulo',
      '2026-11-23T10:00:00Z',
      0,
      [
        ['Hoje', '23/11'],
        ['ter.', '24/11'],
        ['qua.', '25/11'],
        ['qui.', '26/11'],
      ],
    ],
    [
      '22:00 Monday in São Paulo is Tuesday in UTC; the grid still starts Monday',
      '2026-11-24T01:00:00Z',
      0,
      [
        ['Hoje', '23/11'],
        ['ter.', '24/11'],
        ['qua.', '25/11'],
        ['qui.', '26/11'],
      ],
    ],
    [
      'second page moves four days',
      '2026-11-23T10:00:00Z',
      1,
      [
        ['sex.', '27/11'],
        ['sáb.', '28/11'],
        ['dom.', '29/11'],
        ['seg.', '30/11'],
      ],
    ],
    [
      'crosses the year',
      '2026-12-30T12:00:00Z',
      0,
      [
        ['Hoje', '30/12'],
        ['qui.', '31/12'],
        ['sex.', '01/01'],
        ['sáb.', '02/01'],
      ],
    ],
  ])('%s', (_name, now, page, expected) => {
    expect(grid(now, page).days.map((d) => [d.label, d.dayMonth])).toEqual(expected);
  });
});

describe('buildAvailabilityGrid: minimum notice', () => {
  it.each([
    ['before opening: all six of today', '2026-11-23T10:00:00Z', 6],
    ['09:05 São Paulo: 09:30 is 25 min away, offered', '2026-11-23T12:05:00Z', 3],
    ['09:10 São Paulo: 09:30 is exactly 20 min away, not offered', '2026-11-23T12:10:00Z', 2],
    ['after closing: none today (Sem horários)', '2026-11-23T15:00:00Z', 0],
  ])('%s', (_name, now, todayCount) => {
    const [today, tomorrow] = grid(now).days;
    expect(today?.slots).toHaveLength(todayCount);
    expect(tomorrow?.slots).toHaveLength(6);
  });
});

describe('buildAvailabilityGrid: booked slots stay visible, flagged', () => {
  it.each([
    ['a booking at 09:00 São Paulo', '2026-11-23T12:00:00Z', ['09:00']],
    ['a booking on another day', '2026-11-24T12:00:00Z', []],
  ])('%s', (_name, horario_inicio, expected) => {
    const [today] = grid('2026-11-23T10:00:00Z', 0, everyDay, [{ horario_inicio }]).days;
    expect(today?.slots.filter((s) => s.isBooked).map((s) => s.time)).toEqual(expected);
  });
});

describe('buildAvailabilityGrid: paging', () => {
  it.each([
    ['first page', 0, 0, false],
    ['second page', 1, 1, true],
    ['negative page is clamped to the start', -3, 0, false],
    ['fractional page is treated as the start', 1.5, 0, false],
  ])('%s', (_name, page, expectedPage, canGoPrevious) => {
    const result = grid('2026-11-23T10:00:00Z', page);
    expect(result.page).toBe(expectedPage);
    expect(result.canGoPrevious).toBe(canGoPrevious);
  });

  it.each([
    ['previous of 0 stays at 0', previousPage(0), 0],
    ['previous of 2', previousPage(2), 1],
    ['next of 0', nextPage(0), 1],
    ['next of a bad value starts over', nextPage(-1), 1],
  ])('%s', (_name, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it.each([
    ['page 0', 0, '2026-11-23'],
    ['page 2', 2, '2026-12-01'],
  ])('gridPageStart %s', (_name, page, expected) => {
    expect(gridPageStart(Temporal.PlainDate.from('2026-11-23'), page).toString()).toBe(expected);
  });
});

describe('collapsed day columns', () => {
  const slots = expandBlocks(everyDay, Temporal.PlainDate.from('2026-11-23'), 1);
  it.each([
    ['collapsed shows four', false, 4],
    ['expanded shows all six', true, 6],
  ])('%s', (_name, expanded, count) => {
    expect(visibleSlots(slots, expanded)).toHaveLength(count);
  });

  it.each([
    ['six slots need the toggle', slots, true],
    ['four slots do not', slots.slice(0, 4), false],
    ['no slots do not', [], false],
  ])('%s', (_name, input, expected) => {
    expect(hasHiddenSlots(input)).toBe(expected);
  });
});
