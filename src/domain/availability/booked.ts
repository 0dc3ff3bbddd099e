import { isBookedStatus } from '../appointments/status.ts';
import { slotKey } from '../time/slot-key.ts';
import { parseInstant } from '../time/zone.ts';

/** A row of agenda_ocupada (or the doctor's own agendamentos) as far as occupancy goes. */
export type OccupiedSlotRow = {
  horario_inicio: string;
  status: string;
};

/** Keys of the slots held by a booked-status appointment; cancelled and expired ones free it. */
export function bookedSlotKeys(rows: readonly OccupiedSlotRow[]): Set<string> {
  const keys = new Set<string>();
  for (const row of rows) {
    if (!isBookedStatus(row.status)) continue;
    const start = parseInstant(row.horario_inicio);
    if (start) keys.add(slotKey(start));
  }
  return keys;
}
