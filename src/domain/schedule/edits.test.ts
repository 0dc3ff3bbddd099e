import { describe, expect, it } from 'vitest';
import {
  NO_EDITS,
  addBlock,
  editBlock,
  hasEdits,
  removeBlock,
  scheduleChanges,
  visibleBlocks,
  type StoredBlock,
} from './edits.ts';

function row(id: string, dia: number, start: string, end: string): StoredBlock {
  return { id, dia_semana: dia, hora_inicio: start, hora_fim: end, intervalo_em_minutos: 30 };
}

const MONDAY = row('mon', 1, '08:00:00', '12:00:00');
const TUESDAY = row('tue', 2, '14:00:00', '18:00:00');

describe('schedule edits', () => {
  it('saves nothing when nothing was changed, whatever the stored week holds', () => {
    expect(hasEdits(NO_EDITS)).toBe(false);
    expect(scheduleChanges([MONDAY, TUESDAY], NO_EDITS)).toEqual({ removals: [], saves: [] });
  });

  it('adding one block writes only that block — never deletes the others (an empty screen included)', () => {
    const edits = addBlock(NO_EDITS, 0, 'novo-1');
    // Rows that reached the replica after the edit began are shown and left alone.
    expect(visibleBlocks([MONDAY, TUESDAY], edits).map((b) => b.key)).toEqual([
      'mon',
      'tue',
      'novo-1',
    ]);
    expect(scheduleChanges([MONDAY, TUESDAY], edits)).toEqual({
      removals: [],
      saves: [
        {
          block: {
            key: 'novo-1',
            dia_semana: 0,
            hora_inicio: '08:00',
            hora_fim: '12:00',
            intervalo_em_minutos: 15,
          },
        },
      ],
    });
  });

  it('an edit of a stored block saves it by id; restoring its values drops the edit', () => {
    const edited = editBlock([MONDAY], NO_EDITS, 'mon', { hora_fim: '11:00' });
    expect(scheduleChanges([MONDAY], edited).saves).toEqual([
      {
        id: 'mon',
        block: {
          key: 'mon',
          dia_semana: 1,
          hora_inicio: '08:00',
          hora_fim: '11:00',
          intervalo_em_minutos: 30,
        },
      },
    ]);
    const restored = editBlock([MONDAY], edited, 'mon', { hora_fim: '12:00' });
    expect(hasEdits(restored)).toBe(false);
  });

  it('removing a stored block deletes only it; removing a new block just forgets it', () => {
    const removed = removeBlock(editBlock([MONDAY], NO_EDITS, 'mon', { hora_fim: '11:00' }), 'mon');
    expect(scheduleChanges([MONDAY, TUESDAY], removed)).toEqual({ removals: ['mon'], saves: [] });
    expect(visibleBlocks([MONDAY, TUESDAY], removed).map((b) => b.key)).toEqual(['tue']);

    const added = addBlock(NO_EDITS, 3, 'novo-1');
    const forgotten = removeBlock(
      editBlock([], added, 'novo-1', { hora_inicio: '09:00' }),
      'novo-1',
    );
    expect(hasEdits(forgotten)).toBe(false);
  });

  it('edits new blocks in place', () => {
    const edits = editBlock([], addBlock(NO_EDITS, 3, 'novo-1'), 'novo-1', {
      intervalo_em_minutos: 60,
    });
    expect(edits.added[0]?.intervalo_em_minutos).toBe(60);
  });

  it('drops edits and removals of blocks deleted meanwhile on another device, never re-creating them', () => {
    const edits = removeBlock(
      editBlock([MONDAY, TUESDAY], NO_EDITS, 'mon', { hora_fim: '10:00' }),
      'tue',
    );
    expect(scheduleChanges([], edits)).toEqual({ removals: [], saves: [] });
    expect(visibleBlocks([], edits)).toEqual([]);
  });
});
