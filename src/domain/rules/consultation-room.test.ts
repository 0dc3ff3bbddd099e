import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { roomOpening, roomWindow } from './consultation-room.ts';

const at = (iso: string) => Temporal.Instant.from(iso);

describe('the consultation room window', () => {
  it('opens 30 minutes before the start and closes at the end of the São Paulo day', () => {
    // 10:00 in São Paulo (UTC−3).
    const w = roomWindow({
      horario_inicio: '2026-11-23T13:00:00Z',
      horario_fim: '2026-11-23T13:30:00Z',
    })!;
    expect(w.opensAt.toString()).toBe('2026-11-23T12:30:00Z');
    expect(w.closesAt.toString()).toBe('2026-11-24T03:00:00Z');
    expect(roomOpening(w, at('2026-11-23T12:29:59Z'))).toBe('not_open');
    expect(roomOpening(w, at('2026-11-23T12:30:00Z'))).toBe('open');
    expect(roomOpening(w, at('2026-11-24T02:59:59Z'))).toBe('open');
    expect(roomOpening(w, at('2026-11-24T03:00:00Z'))).toBe('closed');
  });

  it('stays open two hours after a late consultation ends, past midnight', () => {
    // 23:30 to 00:00 in São Paulo.
    const w = roomWindow({
      horario_inicio: '2026-11-24T02:30:00Z',
      horario_fim: '2026-11-24T03:00:00Z',
    })!;
    expect(w.closesAt.toString()).toBe('2026-11-24T05:00:00Z');
  });

  it('has no window for unreadable instants', () => {
    expect(roomWindow({ horario_inicio: 'ontem', horario_fim: null })).toBeNull();
  });
});
