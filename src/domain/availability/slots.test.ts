import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import type { WeeklyBlock } from './block.ts';
import { heldIntervals } from './booked.ts';
import { expandBlocks, isBeyondMinimumNotice, markBooked } from './slots.ts';

const MONDAY = 1;

function block(overrides: Partial<WeeklyBlock> = {}): WeeklyBlock {
  return {
    dia_semana: MONDAY,
    hora_inicio: '08:00:00',
    hora_fim: '10:00:00',
    intervalo_em_minutos: 30,
    ...overrides,
  };
}

function times(blocks: WeeklyBlock[], from = '2026-11-23', days = 1): string[] {
  return expandBlocks(blocks, Temporal.PlainDate.from(from), days).map((s) => s.time);
}

describe('expandBlocks: steps and fit', () => {
  it.each([
    ['30-min step, 08–10', block(), ['08:00', '08:30', '09:00', '09:30']],
    [
      '60-min step keeps the last slot that fits',
      block({ intervalo_em_minutos: 60 }),
      ['08:00', '09:00'],
    ],
    [
      '15-min step, slot must end by hora_fim',
      block({ intervalo_em_minutos: 15, hora_fim: '09:00:00' }),
      ['08:00', '08:15', '08:30'],
    ],
    ['block shorter than a consultation', block({ hora_fim: '08:20:00' }), []],
    ['block of exactly 30 minutes', block({ hora_fim: '08:30:00' }), ['08:00']],
    [
      'HH:mm times are read too',
      block({ hora_inicio: '14:00', hora_fim: '15:00' }),
      ['14:00', '14:30'],
    ],
    ['end before start yields nothing', block({ hora_inicio: '10:00', hora_fim: '08:00' }), []],
    ['zero step yields nothing (no endless loop)', block({ intervalo_em_minutos: 0 }), []],
    ['other weekday yields nothing', block({ dia_semana: 2 }), []],
    [
      'a block may end at 24:00',
      block({ hora_inicio: '23:00:00', hora_fim: '24:00:00' }),
      ['23:00', '23:30'],
    ],
    [
      'late block reaches 23:30',
      block({ hora_inicio: '23:00:00', hora_fim: '23:59:00', intervalo_em_minutos: 20 }),
      ['23:00', '23:20'],
    ],
  ])('%s', (_name, input, expected) => {
    expect(times([input])).toEqual(expected);
  });

  it('merges overlapping blocks into one slot per start, in order', () => {
    const blocks = [
      block({ hora_inicio: '09:00', hora_fim: '10:00' }),
      block({ hora_inicio: '08:00', hora_fim: '09:30' }),
    ];
    expect(times(blocks)).toEqual(['08:00', '08:30', '09:00', '09:30']);
  });

  it.each([
    ['Sunday is dia_semana 0', 0, '2026-11-22'],
    ['Monday is 1', 1, '2026-11-23'],
    ['Saturday is 6', 6, '2026-11-28'],
  ])('%s', (_name, dia, date) => {
    const slots = expandBlocks(
      [block({ dia_semana: dia })],
      Temporal.PlainDate.from('2026-11-22'),
      7,
    );
    expect(new Set(slots.map((s) => s.date.toString()))).toEqual(new Set([date]));
  });
});

describe('expandBlocks: instants are São Paulo wall clock', () => {
  it.each([
    ['ordinary Monday', '2026-11-23', '08:00', '2026-11-23T11:00:00Z', '2026-11-23T08:00:00'],
    [
      'a 23:00 slot is 02:00 UTC next day',
      '2026-11-23',
      '23:00',
      '2026-11-24T02:00:00Z',
      '2026-11-23T23:00:00',
    ],
    [
      'DST 2018 Monday: 08:00 is 10:00Z, not 11:00Z',
      '2018-12-03',
      '08:00',
      '2018-12-03T10:00:00Z',
      '2018-12-03T08:00:00',
    ],
    [
      'after abolition, Monday 2019-11-04 08:00 is 11:00Z',
      '2019-11-04',
      '08:00',
      '2019-11-04T11:00:00Z',
      '2019-11-04T08:00:00',
    ],
  ])('%s', (_name, date, time, instant, key) => {
    const [slot] = expandBlocks(
      [block({ hora_inicio: time, hora_fim: '23:59', intervalo_em_minutos: 60 })],
      Temporal.PlainDate.from(date),
      1,
    );
    expect(slot?.start.toString()).toBe(instant);
    expect(slot?.end.toString()).toBe(
      Temporal.Instant.from(instant).add({ minutes: 30 }).toString(),
    );
    expect(slot?.key).toBe(key);
  });

  it('skips wall times that never existed (DST start, Sunday 2018-11-04 00:00–01:00)', () => {
    const sundayMidnight = block({ dia_semana: 0, hora_inicio: '00:00', hora_fim: '02:00' });
    expect(times([sundayMidnight], '2018-11-04')).toEqual(['01:00', '01:30']);
  });
});

describe('isBeyondMinimumNotice (strictly more than 20 minutes)', () => {
  const now = Temporal.Instant.from('2026-11-23T11:00:00Z');
  it.each([
    ['21 minutes ahead', 21, true],
    ['exactly 20 minutes ahead', 20, false],
    ['19 minutes ahead', 19, false],
    ['in the past', -30, false],
  ])('%s', (_name, minutes, expected) => {
    expect(isBeyondMinimumNotice(now.add({ minutes }), now)).toBe(expected);
  });
});

describe('markBooked (overlap with booked appointments)', () => {
  // Slots every 15 min from 08:00 to 10:00 São Paulo: 08:00 … 09:30.
  const slots = expandBlocks(
    [block({ intervalo_em_minutos: 15 })],
    Temporal.PlainDate.from('2026-11-23'),
    1,
  );
  it.each([
    [
      'booking at 08:30 takes 08:30 and the overlapping 08:15 and 08:45',
      [['2026-11-23T11:30:00Z', null]],
      ['08:15', '08:30', '08:45'],
    ],
    [
      'touching ends do not overlap (booking 09:30 leaves 09:00 free)',
      [['2026-11-23T12:30:00Z', null]],
      ['09:15', '09:30'],
    ],
    [
      'a stored end shorter than 30 min is honoured',
      [['2026-11-23T11:00:00Z', '2026-11-23T11:15:00Z']],
      ['08:00'],
    ],
    ['no bookings', [], []],
    ['a booking on another day', [['2026-11-24T11:30:00Z', null]], []],
  ] as const)('%s', (_name, rows, expected) => {
    const booked = heldIntervals(
      rows.map(([horario_inicio, horario_fim]) => ({
        horario_inicio,
        horario_fim,
      })),
    );
    expect(
      markBooked(slots, booked)
        .filter((s) => s.isBooked)
        .map((s) => s.time),
    ).toEqual(expected);
  });
});
