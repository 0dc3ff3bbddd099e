import type { RxCollection, RxDocument } from 'rxdb';
import {
  combineLatest,
  distinctUntilChanged,
  map,
  of,
  shareReplay,
  switchMap,
  type Observable,
} from 'rxjs';
import { compareIsoText } from '../src/domain/time/iso-order.ts';
import { joinViews, toView, type AppointmentView } from './appointment-view.ts';
import type { Replica } from './database.ts';
import {
  overlayAppointments,
  overlayOccupied,
  type OccupiedSlot,
  type OverlaidAppointment,
} from './outbox/overlay.ts';
import { resolveAppointmentId } from './outbox/queue.ts';
import type { OutboxState } from './outbox/types.ts';
import type { ReplicaDoc } from './tables.ts';
import type {
  AgendaMedicoDoc,
  AgendaOcupadaDoc,
  AgendamentoDoc,
  GuiaDoc,
  MedicoDoc,
  PerfilDoc,
  ServicoDoc,
} from './schemas.ts';

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

/** One document by primary key, as plain data; null while absent (or without a key). */
function doc$<T>(
  collection: RxCollection<ReplicaDoc> | undefined,
  id: string | null,
): Observable<T | null> {
  if (!collection || id === null) return of(null);
  return collection.findOne(id).$.pipe(map((d) => (d ? toPlain<T>(d) : null)));
}

/** Documents by primary key, as plain data keyed by id (the ones absent are left out). */
function docsByIds$<T>(
  collection: RxCollection<ReplicaDoc> | undefined,
  ids: readonly string[],
): Observable<Map<string, T>> {
  if (!collection || ids.length === 0) return of(new Map<string, T>());
  return collection
    .findByIds([...ids])
    .$.pipe(map((found) => new Map([...found].map(([id, d]) => [id, toPlain<T>(d)]))));
}

function byId<T extends { id: string }>(list: readonly T[]): Map<string, T> {
  return new Map(list.map((x) => [x.id, x]));
}

/** The part of the queue that concerns one appointment (ids resolved as in O2). */
function queueOf(outbox: OutboxState, appointmentId: string): OutboxState {
  return {
    ...outbox,
    mutations: outbox.mutations.filter(
      (m) => resolveAppointmentId(outbox, m.appointmentId) === appointmentId,
    ),
  };
}

/** Same mutations (the queue replaces a mutation object whenever it changes). */
function sameMutations(a: OutboxState, b: OutboxState): boolean {
  return (
    a.mutations.length === b.mutations.length && a.mutations.every((m, i) => m === b.mutations[i])
  );
}

export function createViews(db: Replica, outbox$: Observable<OutboxState>, userId: string | null) {
  const c = db.collections;

  /** The joined rows of the small public collections, whole (doctors, services). */
  const medicos$ = docs$<MedicoDoc>(c.medicos);
  const servicos$ = docs$<ServicoDoc>(c.servicos);

  const appointments$: Observable<AppointmentView[]> = !c.agendamentos
    ? of([])
    : combineLatest([
        docs$<AgendamentoDoc>(c.agendamentos),
        outbox$,
        medicos$,
        docs$<PerfilDoc>(c.perfis_usuarios),
        servicos$,
        docs$<GuiaDoc>(c.guias),
      ]).pipe(
        map(([appointments, outbox, medicos, perfis, servicos, guias]) => {
          const doctors = byId(medicos);
          const overlaid = overlayAppointments(appointments, outbox, {
            userId,
            priceInCents: (id) => doctors.get(id)?.price_in_cents ?? null,
          });
          return joinViews(overlaid, {
            doctors,
            people: byId(perfis),
            services: byId(servicos),
            guides: byId(guias),
            guideByAppointment: new Map(guias.map((g) => [g.agendamento_id, g])),
          });
        }),
        // The dashboard's frame and its finance section read it at once: one computation.
        shareReplay({ bufferSize: 1, refCount: true }),
      );

  /**
   * The appointments starting in [from, to) (ISO instants), as `appointments$` shows them,
   * without reading the whole replica: the day's rows through the `horario_inicio` index, the
   * queue laid over them, and only their own profiles and guides (by key, and guides of
   * appointments that do not name theirs yet by the `agendamento_id` index).
   */
  function appointmentsBetween$(from: string, to: string): Observable<AppointmentView[]> {
    if (!c.agendamentos) return of([]);
    const starts = (a: { horario_inicio: string }) =>
      a.horario_inicio >= from && a.horario_inicio < to;
    const overlaid$ = combineLatest([
      docs$<AgendamentoDoc>(c.agendamentos, { horario_inicio: { $gte: from, $lt: to } }),
      outbox$,
      medicos$,
    ]).pipe(
      map(([appointments, outbox, medicos]) => {
        const doctors = byId(medicos);
        // A queued booking of another day is laid over too: keep the range's only.
        return overlayAppointments(appointments, outbox, {
          userId,
          priceInCents: (id) => doctors.get(id)?.price_in_cents ?? null,
        }).filter(starts);
      }),
      shareReplay({ bufferSize: 1, refCount: true }),
    );
    const keyed = (key: (a: OverlaidAppointment) => string | null) =>
      overlaid$.pipe(
        map((list) => [...new Set(list.map(key).filter((k): k is string => k !== null))].sort()),
        distinctUntilChanged((a, b) => a.join() === b.join()),
      );
    const people$ = keyed((a) => a.patient_id).pipe(
      switchMap((ids) => docsByIds$<PerfilDoc>(c.perfis_usuarios, ids)),
    );
    const guides$ = keyed((a) => a.guia_id).pipe(
      switchMap((ids) => docsByIds$<GuiaDoc>(c.guias, ids)),
    );
    const unnamedGuides$ = keyed((a) => (a.guia_id ? null : a.id)).pipe(
      switchMap((ids) =>
        ids.length === 0 ? of([]) : docs$<GuiaDoc>(c.guias, { agendamento_id: { $in: ids } }),
      ),
    );
    return combineLatest([overlaid$, medicos$, people$, servicos$, guides$, unnamedGuides$]).pipe(
      map(([overlaid, medicos, people, servicos, guides, unnamed]) =>
        joinViews(overlaid, {
          doctors: byId(medicos),
          people,
          services: byId(servicos),
          guides,
          guideByAppointment: new Map(unnamed.map((g) => [g.agendamento_id, g])),
        }),
      ),
    );
  }

  /**
   * One appointment without the whole list (a doctor may have thousands): the document by
   * primary key, the queue's mutations for it, and each joined row by its key. Only an
   * appointment without `guia_id` looks its guide up by `agendamento_id` (a guide that
   * arrived before the appointment's update), which reads the guides collection.
   */
  function appointmentById$(target: string): Observable<AppointmentView | null> {
    const stored$ = doc$<AgendamentoDoc>(c.agendamentos, target);
    const queue$ = outbox$.pipe(
      map((outbox) => queueOf(outbox, target)),
      distinctUntilChanged(sameMutations),
    );
    const base$ = combineLatest([stored$, queue$]).pipe(
      shareReplay({ bufferSize: 1, refCount: true }),
    );
    const medico$ = base$.pipe(
      map(([stored, queue]) => {
        const booking = queue.mutations.find((m) => m.kind === 'book');
        return stored?.medico_id ?? (booking?.kind === 'book' ? booking.args.medicoId : null);
      }),
      distinctUntilChanged(),
      switchMap((medicoId) => doc$<MedicoDoc>(c.medicos, medicoId)),
    );
    const overlaid$ = combineLatest([base$, medico$]).pipe(
      map(([[stored, queue], medico]) => {
        const [a] = overlayAppointments(stored ? [stored] : [], queue, {
          userId,
          priceInCents: () => medico?.price_in_cents ?? null,
        });
        return a ?? null;
      }),
      shareReplay({ bufferSize: 1, refCount: true }),
    );
    const joined = <T>(
      key: (a: OverlaidAppointment) => string | null,
      load: (k: string | null) => Observable<T | null>,
    ) =>
      overlaid$.pipe(
        map((a) => (a ? key(a) : null)),
        distinctUntilChanged(),
        switchMap(load),
      );
    const guia$ = overlaid$.pipe(
      map((a) => (a ? (a.guia_id ?? null) : undefined)),
      distinctUntilChanged(),
      switchMap((guiaId) =>
        guiaId === undefined
          ? of(null)
          : guiaId !== null
            ? doc$<GuiaDoc>(c.guias, guiaId)
            : docs$<GuiaDoc>(c.guias, { agendamento_id: target }).pipe(map((l) => l[0] ?? null)),
      ),
    );
    return combineLatest([
      overlaid$,
      medico$,
      joined(
        (a) => a.patient_id,
        (k) => doc$<PerfilDoc>(c.perfis_usuarios, k),
      ),
      joined(
        (a) => a.servico_id,
        (k) => doc$<ServicoDoc>(c.servicos, k),
      ),
      guia$,
    ]).pipe(
      map(([a, medico, paciente, servico, guia]) =>
        a
          ? toView(a, {
              medico: medico ?? undefined,
              paciente: paciente ?? undefined,
              servico: servico ?? undefined,
              guia: guia ?? undefined,
            })
          : null,
      ),
    );
  }

  return {
    doctors$: docs$<MedicoDoc>(c.medicos, { is_public: true, is_active: true }).pipe(
      map((list) => list.sort((a, b) => compareIsoText(a.created_at ?? '', b.created_at ?? ''))),
    ),
    doctor$: (id: string) => docs$<MedicoDoc>(c.medicos, { id }).pipe(map((l) => l[0] ?? null)),
    ownDoctor$: docs$<MedicoDoc>(c.medicos, { user_id: userId ?? '' }).pipe(
      map((l) => l[0] ?? null),
    ),
    availability$: (medicoId: string) =>
      docs$<AgendaMedicoDoc>(c.agenda_medico, { medico_id: medicoId }).pipe(
        map((list) =>
          list.sort(
            (a, b) => a.dia_semana - b.dia_semana || compareIsoText(a.hora_inicio, b.hora_inicio),
          ),
        ),
      ),
    occupiedSlots$: (medicoId: string): Observable<OccupiedSlot[]> =>
      combineLatest([
        docs$<AgendaOcupadaDoc>(c.agenda_ocupada, { medico_id: medicoId }),
        outbox$,
      ]).pipe(map(([slots, outbox]) => overlayOccupied(slots, outbox, medicoId))),
    appointments$,
    appointmentsBetween$,
    appointment$: (id: string): Observable<AppointmentView | null> =>
      outbox$.pipe(
        map((outbox) => resolveAppointmentId(outbox, id)),
        distinctUntilChanged(),
        switchMap((target) => appointmentById$(target)),
      ),
    guide$: (id: string) => docs$<GuiaDoc>(c.guias, { id }).pipe(map((l) => l[0] ?? null)),
    profile$: docs$<PerfilDoc>(c.perfis_usuarios, { id: userId ?? '' }).pipe(
      map((l) => l[0] ?? null),
    ),
  };
}

export type Views = ReturnType<typeof createViews>;
