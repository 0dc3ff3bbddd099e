import type { RxCollection, RxDocument } from 'rxdb';
import { combineLatest, map, of, type Observable } from 'rxjs';
import type { Replica } from './database.ts';
import {
  overlayAppointments,
  overlayOccupied,
  type OccupiedSlot,
  type OverlaidAppointment,
} from './outbox/overlay.ts';
import { resolveAppointmentId } from './outbox/queue.ts';
import type { OutboxState } from './outbox/types.ts';
import type { ReplicaDoc } from './row.ts';
import type {
  AgendaMedicoDoc,
  AgendaOcupadaDoc,
  AgendamentoDoc,
  GuiaDoc,
  MedicoDoc,
  PerfilDoc,
  ServicoDoc,
} from './schemas.ts';

/** An appointment as the lists show it: joined in the replica, never over the network (V2). */
export type AppointmentView = OverlaidAppointment & {
  medico: Pick<MedicoDoc, 'id' | 'name' | 'public_name' | 'specialty' | 'crm' | 'uf'> | null;
  paciente: Pick<PerfilDoc, 'id' | 'full_name' | 'email' | 'cpf' | 'data_nasc' | 'whatsapp'> | null;
  servico: Pick<ServicoDoc, 'id' | 'nome'> | null;
  guia: Pick<GuiaDoc, 'id' | 'protocolo' | 'pdf_url'> | null;
};

/**
 * RxDB hands out the same RxDocument object for as long as a document's revision is
 * unchanged, so its plain copy is made once, not on every emission of a 10,000-row list.
 */
const plain = new WeakMap<RxDocument<ReplicaDoc>, unknown>();

function toPlain<T>(doc: RxDocument<ReplicaDoc>): T {
  let value = plain.get(doc);
  if (value === undefined) {
    value = doc.toJSON();
    plain.set(doc, value);
  }
  return value as T;
}

/** Plain data out of RxDB: screens get objects, not RxDocuments. */
function docs$<T>(
  collection: RxCollection<ReplicaDoc> | undefined,
  selector = {},
): Observable<T[]> {
  if (!collection) return of([]);
  return collection.find({ selector }).$.pipe(map((list) => list.map((d) => toPlain<T>(d))));
}

function byId<T extends { id: string }>(list: readonly T[]): Map<string, T> {
  return new Map(list.map((x) => [x.id, x]));
}

export function createViews(db: Replica, outbox$: Observable<OutboxState>, userId: string | null) {
  const c = db.collections;

  const appointments$: Observable<AppointmentView[]> = !c.agendamentos
    ? of([])
    : combineLatest([
        docs$<AgendamentoDoc>(c.agendamentos),
        outbox$,
        docs$<MedicoDoc>(c.medicos),
        docs$<PerfilDoc>(c.perfis_usuarios),
        docs$<ServicoDoc>(c.servicos),
        docs$<GuiaDoc>(c.guias),
      ]).pipe(
        map(([appointments, outbox, medicos, perfis, servicos, guias]) => {
          const doctors = byId(medicos);
          const people = byId(perfis);
          const services = byId(servicos);
          const guides = byId(guias);
          const guideByAppointment = new Map(guias.map((g) => [g.agendamento_id, g]));
          const overlaid = overlayAppointments(appointments, outbox, {
            patientId: userId,
            priceInCents: (id) => doctors.get(id)?.price_in_cents ?? null,
          });
          return overlaid
            .map((a): AppointmentView => {
              const medico = doctors.get(a.medico_id);
              const paciente = a.patient_id ? people.get(a.patient_id) : undefined;
              const servico = a.servico_id ? services.get(a.servico_id) : undefined;
              const guia =
                (a.guia_id ? guides.get(a.guia_id) : undefined) ?? guideByAppointment.get(a.id);
              return {
                ...a,
                medico: medico
                  ? pick(medico, ['id', 'name', 'public_name', 'specialty', 'crm', 'uf'])
                  : null,
                paciente: paciente
                  ? pick(paciente, ['id', 'full_name', 'email', 'cpf', 'data_nasc', 'whatsapp'])
                  : null,
                servico: servico ? pick(servico, ['id', 'nome']) : null,
                guia: guia ? pick(guia, ['id', 'protocolo', 'pdf_url']) : null,
              };
            })
            .sort((x, y) => y.horario_inicio.localeCompare(x.horario_inicio));
        }),
      );

  return {
    doctors$: docs$<MedicoDoc>(c.medicos, { is_public: true, is_active: true }).pipe(
      map((list) => list.sort((a, b) => (a.created_at ?? '').localeCompare(b.created_at ?? ''))),
    ),
    doctor$: (id: string) => docs$<MedicoDoc>(c.medicos, { id }).pipe(map((l) => l[0] ?? null)),
    ownDoctor$: docs$<MedicoDoc>(c.medicos, { user_id: userId ?? '' }).pipe(
      map((l) => l[0] ?? null),
    ),
    availability$: (medicoId: string) =>
      docs$<AgendaMedicoDoc>(c.agenda_medico, { medico_id: medicoId }).pipe(
        map((list) =>
          list.sort(
            (a, b) => a.dia_semana - b.dia_semana || a.hora_inicio.localeCompare(b.hora_inicio),
          ),
        ),
      ),
    occupiedSlots$: (medicoId: string): Observable<OccupiedSlot[]> =>
      combineLatest([
        docs$<AgendaOcupadaDoc>(c.agenda_ocupada, { medico_id: medicoId }),
        outbox$,
      ]).pipe(map(([slots, outbox]) => overlayOccupied(slots, outbox, medicoId))),
    appointments$,
    appointment$: (id: string) =>
      combineLatest([appointments$, outbox$]).pipe(
        map(([list, outbox]) => {
          const target = resolveAppointmentId(outbox, id);
          return list.find((a) => a.id === target) ?? null;
        }),
      ),
    guide$: (id: string) => docs$<GuiaDoc>(c.guias, { id }).pipe(map((l) => l[0] ?? null)),
    profile$: docs$<PerfilDoc>(c.perfis_usuarios, { id: userId ?? '' }).pipe(
      map((l) => l[0] ?? null),
    ),
  };
}

function pick<T extends object, K extends keyof T>(obj: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = obj[k];
  return out;
}

export type Views = ReturnType<typeof createViews>;
