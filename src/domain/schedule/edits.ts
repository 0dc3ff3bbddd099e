import { newEditorBlock, toEditorBlock, type EditorBlock } from './editor.ts';

/** A stored availability block, as far as the editor reads it ('HH:mm:ss' times). */
export type StoredBlock = {
  id: string;
  dia_semana: number;
  hora_inicio: string;
  hora_fim: string;
  intervalo_em_minutos: number;
};

/**
 * What the person changed in the schedule editor, kept apart from the stored blocks and laid
 * over them on screen. Saving writes exactly these changes: a block the editor never showed
 * (still syncing, or added meanwhile on another device) is never touched, so a save can only
 * delete what the person removed.
 */
export type ScheduleEdits = {
  /** New blocks, keyed by a local id that is not a row id. */
  added: readonly EditorBlock[];
  /** Stored blocks as edited, by row id; only those that differ from the stored row. */
  edited: Readonly<Record<string, EditorBlock>>;
  /** Row ids the person removed. */
  removed: readonly string[];
};

export const NO_EDITS: ScheduleEdits = { added: [], edited: {}, removed: [] };

export function hasEdits(edits: ScheduleEdits): boolean {
  return edits.added.length > 0 || Object.keys(edits.edited).length > 0 || edits.removed.length > 0;
}

function sameValues(a: EditorBlock, b: EditorBlock): boolean {
  return (
    a.dia_semana === b.dia_semana &&
    a.hora_inicio === b.hora_inicio &&
    a.hora_fim === b.hora_fim &&
    a.intervalo_em_minutos === b.intervalo_em_minutos
  );
}

/** The week on screen: the stored blocks with the person's edits and removals, then new ones. */
export function visibleBlocks(rows: readonly StoredBlock[], edits: ScheduleEdits): EditorBlock[] {
  const removed = new Set(edits.removed);
  const stored = rows
    .filter((row) => !removed.has(row.id))
    .map((row) => edits.edited[row.id] ?? toEditorBlock(row));
  return [...stored, ...edits.added];
}

export function addBlock(edits: ScheduleEdits, diaSemana: number, key: string): ScheduleEdits {
  return { ...edits, added: [...edits.added, newEditorBlock(diaSemana, key)] };
}

/** Changes one field set of a shown block; an edit that restores the stored values is dropped. */
export function editBlock(
  rows: readonly StoredBlock[],
  edits: ScheduleEdits,
  key: string,
  patch: Partial<Omit<EditorBlock, 'key' | 'dia_semana'>>,
): ScheduleEdits {
  if (edits.added.some((block) => block.key === key)) {
    return {
      ...edits,
      added: edits.added.map((block) => (block.key === key ? { ...block, ...patch } : block)),
    };
  }
  const row = rows.find((r) => r.id === key);
  if (!row) return edits;
  const stored = toEditorBlock(row);
  const next = { ...(edits.edited[key] ?? stored), ...patch };
  const { [key]: _previous, ...others } = edits.edited;
  return { ...edits, edited: sameValues(next, stored) ? others : { ...others, [key]: next } };
}

export function removeBlock(edits: ScheduleEdits, key: string): ScheduleEdits {
  if (edits.added.some((block) => block.key === key)) {
    return { ...edits, added: edits.added.filter((block) => block.key !== key) };
  }
  const { [key]: _edited, ...edited } = edits.edited;
  return { ...edits, edited, removed: [...edits.removed, key] };
}

export type ScheduleChanges = {
  /** Row ids to delete; written first so a moved block never overlaps its old range. */
  removals: string[];
  /** Blocks to write: with the row id when editing a stored block, without when new. */
  saves: { id?: string; block: EditorBlock }[];
};

/**
 * The writes a save makes: only what the person changed, and only for rows that still exist
 * (an edit or removal of a block deleted meanwhile elsewhere is dropped, never re-created).
 */
export function scheduleChanges(
  rows: readonly StoredBlock[],
  edits: ScheduleEdits,
): ScheduleChanges {
  const known = new Set(rows.map((row) => row.id));
  return {
    removals: edits.removed.filter((id) => known.has(id)),
    saves: [
      ...Object.entries(edits.edited)
        .filter(([id]) => known.has(id))
        .map(([id, block]) => ({ id, block })),
      ...edits.added.map((block) => ({ block })),
    ],
  };
}
