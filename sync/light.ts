import { joinViews, type AppointmentView } from './appointment-view.ts';
import { rowToDoc, type ServerRow } from './row.ts';
import type { AgendamentoDoc, GuiaDoc, MedicoDoc, PerfilDoc } from './schemas.ts';
import { TABLES, type TableName } from './tables.ts';

/**
 * The engine's light entry: what a screen may use before the engine's chunk (RxDB, rxjs) is
 * loaded. A screen's first read, made over REST, shaped as the replica would show it: each
 * row kept to its table's columns with its instants normalised (R5, row.ts), appointments
 * joined as the views join them (appointment-view.ts). A first read is only for a device that
 * holds no replica of the person (presence.ts): it has no queue, so nothing is laid over the
 * rows.
 */

/** The server's rows of one first read, as PostgREST sent them (RLS decided which). */
export type FirstReadRows = {
  appointments: readonly ServerRow[];
  doctors: readonly ServerRow[];
  people: readonly ServerRow[];
  guides: readonly ServerRow[];
};

/** Rows as screens get the replica's documents: RxDB's plain copy leaves `_deleted` out. */
function docsOf<T>(table: TableName, rows: readonly ServerRow[]): T[] {
  const spec = TABLES.find((t) => t.name === table);
  if (!spec) throw new Error(`no table ${table}`);
  return rows.map((row) => {
    const { _deleted: _, ...doc } = rowToDoc(spec, row);
    return doc as unknown as T;
  });
}

/** A `medicos` row as the replica stores it. */
export function firstReadDoctor(row: ServerRow): MedicoDoc {
  return docsOf<MedicoDoc>('medicos', [row])[0]!;
}

/** Appointments joined to the doctors, people and guides read with them, newest first. */
export function firstReadViews(rows: FirstReadRows): AppointmentView[] {
  const guides = docsOf<GuiaDoc>('guias', rows.guides);
  return joinViews(
    docsOf<AgendamentoDoc>('agendamentos', rows.appointments).map((a) => ({
      ...a,
      sync: { state: 'synced' },
    })),
    {
      doctors: new Map(docsOf<MedicoDoc>('medicos', rows.doctors).map((d) => [d.id, d])),
      people: new Map(docsOf<PerfilDoc>('perfis_usuarios', rows.people).map((p) => [p.id, p])),
      // No first read shows the service (the replica's lists join it for the patient's cards).
      services: new Map(),
      guides: new Map(guides.map((g) => [g.id, g])),
      guideByAppointment: new Map(guides.map((g) => [g.agendamento_id, g])),
    },
  );
}
