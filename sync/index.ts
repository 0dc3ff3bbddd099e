/**
 * The sync engine: the app's only way to read and write data (docs/architecture.md §1). Screens read
 * the local replica through the observables here; writes are local first and synced. The
 * rules are in sync/SPEC.md; the integration guide is at its top.
 */
import { map, type Observable } from 'rxjs';
import * as v from 'valibot';
import { browserIndexedDb, deleteReplicaFiles, type IndexedDbSource } from './database.ts';
import { isQuotaExceeded } from './errors.ts';
import { startEngine, type EngineCore, type EngineOptions, type SyncEvent } from './engine.ts';
import type { AgendaMedicoDoc, GuiaDoc, MedicoDoc, PerfilDoc } from './schemas.ts';
import type { SyncStatus } from './status.ts';
import type { ReplicaDoc, TableName } from './tables.ts';
import type { OccupiedSlot } from './outbox/overlay.ts';
import { MUTATIONS, mayQueue, type MutationInput, type MutationKind } from './outbox/mutations.ts';
import type { Mutation } from './outbox/types.ts';
import type { AppointmentView } from './views.ts';
import { ROOM_CHOICES, type RoomEvent } from '../src/domain/rules/consultation-room.ts';
import {
  PIX_CITY_MAX_LENGTH,
  PIX_KEY_MAX_LENGTH,
  PIX_KEY_PATTERN,
} from '../src/domain/rules/pix.ts';
import { uuidField } from '../src/domain/schemas/fields.ts';
import {
  availabilityBlockSchema,
  type AvailabilityBlockInput,
} from '../src/domain/schemas/sync-inputs.ts';

export type { EngineOptions as SyncEngineOptions, SyncEvent, SyncUser } from './engine.ts';
export type { SyncStatus, SyncError } from './status.ts';
export type { TableName } from './tables.ts';
export type { AppointmentView } from './views.ts';
export type { OccupiedSlot, SyncMark } from './outbox/overlay.ts';
export type { Mutation, MutationKind, Rejection } from './outbox/types.ts';
export {
  MUTATIONS,
  outcomeToast,
  type Action,
  type ActorRole,
  type OutcomeToast,
} from './outbox/mutations.ts';
export type { AvailabilityBlockInput };
export type { ConflictReport, DroppedField } from './conflict.ts';
export type { WriteRejection } from './push.ts';
export type { Clock, Timers } from './runtime.ts';
export type {
  AgendaMedicoDoc,
  AgendaOcupadaDoc,
  AgendamentoDoc,
  GuiaDoc,
  MedicoDoc,
  PerfilDoc,
  ServicoDoc,
} from './schemas.ts';

/**
 * Why a write was not accepted locally; nothing was queued or stored. 'storage-full': the
 * device has no room left (IndexedDB's QuotaExceededError); what was saved before stays.
 */
export type WriteError = 'invalid-input' | 'not-allowed' | 'not-found' | 'storage-full';

/** Result of a local write: errors are values, never exceptions. */
export type WriteResult<T = undefined> = { ok: true; value: T } | { ok: false; error: WriteError };

const DoctorProfilePatch = v.partial(
  v.object({
    public_name: v.pipe(v.string(), v.trim(), v.nonEmpty()),
    specialty: v.pipe(v.string(), v.trim(), v.nonEmpty()),
    crm: v.pipe(v.string(), v.trim(), v.nonEmpty()),
    uf: v.pipe(v.string(), v.length(2)),
    bio: v.nullable(v.string()),
    price_in_cents: v.pipe(v.number(), v.integer(), v.minValue(0)),
    image_url: v.nullable(v.string()),
    doctoralia_reviews_url: v.nullable(v.string()),
    pix_chave: v.nullable(
      v.pipe(v.string(), v.maxLength(PIX_KEY_MAX_LENGTH), v.regex(new RegExp(PIX_KEY_PATTERN))),
    ),
    pix_cidade: v.nullable(
      v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(PIX_CITY_MAX_LENGTH)),
    ),
    sala_consulta: v.picklist(ROOM_CHOICES),
  }),
);
const ProfilePatch = v.partial(
  v.object({
    full_name: v.pipe(v.string(), v.trim(), v.nonEmpty()),
    whatsapp: v.nullable(v.string()),
    data_nasc: v.nullable(v.pipe(v.string(), v.isoDate())),
    lembretes_email: v.boolean(),
  }),
);

export type DoctorProfilePatch = v.InferInput<typeof DoctorProfilePatch>;
export type ProfilePatch = v.InferInput<typeof ProfilePatch>;

/** What `createSyncEngine` returns; see sync/SPEC.md for the rules behind each member. */
export type SyncEngine = {
  /** Online state, pending mutations, last sync time, first-sync progress, errors (S1). */
  status$: Observable<SyncStatus>;
  /** Applied and rejected actions, conflicts, to show as toasts (O5, O7, P3, P4). Hot. */
  events$: Observable<SyncEvent>;
  /** Public, active doctors, oldest first (the booking page's cards). */
  doctors$: Observable<MedicoDoc[]>;
  /** One doctor by id, public or not, as far as this user may see it; null if unknown. */
  doctor$(id: string): Observable<MedicoDoc | null>;
  /** The signed-in doctor's own record (for the dashboard and the schedule editor). */
  ownDoctor$: Observable<MedicoDoc | null>;
  /** A doctor's availability blocks, by weekday then start. */
  availability$(medicoId: string): Observable<AgendaMedicoDoc[]>;
  /** A doctor's taken slots (everyone's bookings, plus this person's queued ones). */
  occupiedSlots$(medicoId: string): Observable<OccupiedSlot[]>;
  /** This user's appointments, newest first, joined and with queued changes laid over. */
  appointments$: Observable<AppointmentView[]>;
  /** One appointment; accepts the optimistic id a booking returned, before and after sync. */
  appointment$(id: string): Observable<AppointmentView | null>;
  /** A guide by id (the /guia/{id} page). */
  guide$(id: string): Observable<GuiaDoc | null>;
  /** The signed-in user's profile row. */
  profile$: Observable<PerfilDoc | null>;
  /** The outbox: queued and rejected mutations, in order. */
  mutations$: Observable<Mutation[]>;

  /** Books a slot (patients). Returns the optimistic appointment id, usable at once. */
  book(input: {
    medicoId: string;
    horarioInicio: string;
  }): Promise<WriteResult<{ mutationId: string; appointmentId: string }>>;
  /** Generates the guide of a booked appointment (patients). */
  generateGuide(appointmentId: string): Promise<WriteResult<{ mutationId: string }>>;
  /** Marks an appointment paid (doctors). */
  confirmPayment(appointmentId: string): Promise<WriteResult<{ mutationId: string }>>;
  /** Confirms attendance (doctors). */
  checkIn(appointmentId: string): Promise<WriteResult<{ mutationId: string }>>;
  /** Cancels an appointment (doctors). */
  cancel(appointmentId: string): Promise<WriteResult<{ mutationId: string }>>;
  /** Cancels one's own appointment or releases a checkout hold (patients; the server checks the notice). */
  patientCancel(appointmentId: string): Promise<WriteResult<{ mutationId: string }>>;
  /** Saves the consultation's https link (doctors). */
  saveMeetingLink(
    appointmentId: string,
    link: string,
  ): Promise<WriteResult<{ mutationId: string }>>;
  /**
   * Records what happened in the consultation room on the appointment (registrar_evento_sala):
   * 'paciente_entrou' (patients), 'chamada_iniciada' (doctors), 'chamada_encerrada' and
   * 'so_audio' (either). Queued like the other actions, so it reaches the server exactly once.
   */
  recordRoomEvent(
    appointmentId: string,
    evento: RoomEvent,
  ): Promise<WriteResult<{ mutationId: string }>>;
  /** How many queued changes have not reached the server yet (`status$`'s pendingMutations, now). */
  pendingCount(): number;
  /** Forgets a rejected booking after the person has seen it. */
  dismissRejected(mutationId: string): Promise<void>;

  /** Creates or edits one of the signed-in doctor's availability blocks; returns its id. */
  saveAvailabilityBlock(block: AvailabilityBlockInput): Promise<WriteResult<{ id: string }>>;
  /** Removes one of the signed-in doctor's availability blocks. */
  removeAvailabilityBlock(id: string): Promise<WriteResult>;
  /** Edits the signed-in doctor's public profile. */
  updateDoctorProfile(patch: DoctorProfilePatch): Promise<WriteResult>;
  /** Edits the signed-in user's own profile fields (name, birth date, WhatsApp). */
  updateProfile(patch: ProfilePatch): Promise<WriteResult>;

  /** Pulls every collection now and sends the queue (also done on reconnect and focus). */
  resync(): void;
  /**
   * True once this device's replica has completed a first pull of `table` for this user, in
   * this session or an earlier one (offline too): its rows are the server's as of that pull,
   * not an empty replica still syncing (S2). Screens that write a set of rows wait for it.
   */
  pulledOnce$(table: TableName): Observable<boolean>;
  /** Resolves once every collection finished its first pull of this session. */
  awaitInitialSync(): Promise<void>;
  /** Resolves when everything is pulled, pushed and no mutation is pending (needs a connection). */
  awaitInSync(): Promise<void>;
  /** Stops syncing and closes the replica; its data stays for the next start. */
  close(): Promise<void>;
  /**
   * Stops syncing and deletes this user's replica, queued mutations included (R1). Call it
   * on sign-out, before or after `supabase.auth.signOut()`.
   */
  signOut(): Promise<void>;
};

/**
 * Runs a local write; a full disk becomes the 'storage-full' value instead of an exception
 * (IndexedDB aborts the failed transaction, so earlier writes are untouched). Any other
 * failure is a bug and is thrown.
 */
async function guarded<T>(write: () => Promise<WriteResult<T>>): Promise<WriteResult<T>> {
  try {
    return await write();
  } catch (error) {
    if (isQuotaExceeded(error)) return { ok: false, error: 'storage-full' };
    throw error;
  }
}

/**
 * Opens the replica for a visitor (`user: null`), a patient or a doctor and starts syncing.
 * One engine per signed-in user; create a new one when the user changes.
 */
export async function createSyncEngine(opts: EngineOptions): Promise<SyncEngine> {
  const core: EngineCore = await startEngine(opts);
  const { db, views, outbox, user } = core;

  /**
   * Queues one action of mutations.ts: its arguments must pass its schema and the signed-in
   * person must hold one of its roles; nothing else is checked here (the server decides, O5).
   */
  async function enqueue<K extends MutationKind>(
    kind: K,
    appointmentId: string,
    input: unknown,
    id = core.newId(),
  ): Promise<WriteResult<{ mutationId: string }>> {
    const action = MUTATIONS[kind];
    const args = v.safeParse(action.args, input);
    if (!args.success || !v.is(uuidField, appointmentId)) {
      return { ok: false, error: 'invalid-input' };
    }
    if (!user || !mayQueue(kind, args.output, user.role)) {
      return { ok: false, error: 'not-allowed' };
    }
    return guarded(async () => {
      // `kind` and its arguments' schema come from one entry, which TypeScript cannot follow.
      const queued = { kind, args: args.output } as MutationInput;
      const m = await outbox.add(queued, { id, appointmentId });
      return { ok: true, value: { mutationId: m.id } };
    });
  }

  /** An action that takes nothing but its appointment. */
  const onAppointment =
    (kind: 'generate_guide' | 'confirm_payment' | 'check_in' | 'cancel' | 'patient_cancel') =>
    (appointmentId: string) =>
      enqueue(kind, appointmentId, {});

  async function ownDoc(table: 'medicos' | 'perfis_usuarios') {
    const collection = db.collections[table];
    if (!collection || !user) return null;
    const selector = table === 'medicos' ? { user_id: user.id } : { id: user.id };
    return collection.findOne({ selector }).exec();
  }

  async function ownDoctorId(): Promise<string | null> {
    if (user?.role !== 'medico') return null;
    const doc = await ownDoc('medicos');
    return doc ? doc.id : null;
  }

  return {
    status$: core.status$,
    events$: core.events$,
    doctors$: views.doctors$,
    doctor$: views.doctor$,
    ownDoctor$: views.ownDoctor$,
    availability$: views.availability$,
    occupiedSlots$: views.occupiedSlots$,
    appointments$: views.appointments$,
    appointment$: views.appointment$,
    guide$: views.guide$,
    profile$: views.profile$,
    mutations$: outbox.state$.pipe(map((s) => s.mutations)),

    async book(input) {
      const id = core.newId();
      const result = await enqueue('book', id, input, id);
      return result.ok
        ? { ok: true, value: { mutationId: result.value.mutationId, appointmentId: id } }
        : result;
    },
    generateGuide: onAppointment('generate_guide'),
    confirmPayment: onAppointment('confirm_payment'),
    checkIn: onAppointment('check_in'),
    cancel: onAppointment('cancel'),
    patientCancel: onAppointment('patient_cancel'),
    saveMeetingLink: (appointmentId, link) => enqueue('save_meeting_link', appointmentId, { link }),
    recordRoomEvent: (appointmentId, evento) => enqueue('room_event', appointmentId, { evento }),
    pendingCount: () => outbox.current().mutations.filter((m) => m.state === 'pending').length,
    dismissRejected: (mutationId) => outbox.dismiss(mutationId),

    saveAvailabilityBlock(block) {
      return guarded(async () => {
        const parsed = v.safeParse(availabilityBlockSchema, block);
        if (!parsed.success) return { ok: false, error: 'invalid-input' };
        const medicoId = await ownDoctorId();
        const collection = db.collections.agenda_medico;
        if (!medicoId || !collection) return { ok: false, error: 'not-allowed' };
        const { id = core.newId(), ...times } = parsed.output;
        const existing = await collection.findOne(id).exec();
        if (existing && existing.get('medico_id') !== medicoId)
          return { ok: false, error: 'not-allowed' };
        const fields = { ...times, status: 'disponivel' };
        if (existing) await existing.incrementalPatch(fields);
        else {
          await collection.insert({
            id,
            medico_id: medicoId,
            ...fields,
            created_at: null,
            updated_at: null,
            server_modified: null,
            _deleted: false,
          });
        }
        return { ok: true, value: { id } };
      });
    },
    removeAvailabilityBlock(id) {
      return guarded(async () => {
        const medicoId = await ownDoctorId();
        const doc = await db.collections.agenda_medico?.findOne(id).exec();
        if (!doc) return { ok: false, error: 'not-found' };
        if (!medicoId || doc.get('medico_id') !== medicoId)
          return { ok: false, error: 'not-allowed' };
        await doc.remove();
        return { ok: true, value: undefined };
      });
    },
    updateDoctorProfile(patch) {
      return guarded(async () => {
        const parsed = v.safeParse(DoctorProfilePatch, patch);
        if (!parsed.success) return { ok: false, error: 'invalid-input' };
        const doc = user?.role === 'medico' ? await ownDoc('medicos') : null;
        if (!doc)
          return { ok: false, error: user?.role === 'medico' ? 'not-found' : 'not-allowed' };
        await doc.incrementalPatch(parsed.output);
        return { ok: true, value: undefined };
      });
    },
    updateProfile(patch) {
      return guarded(async () => {
        const parsed = v.safeParse(ProfilePatch, patch);
        if (!parsed.success) return { ok: false, error: 'invalid-input' };
        const doc = await ownDoc('perfis_usuarios');
        if (!doc) return { ok: false, error: user ? 'not-found' : 'not-allowed' };
        await doc.incrementalPatch(parsed.output);
        return { ok: true, value: undefined };
      });
    },

    resync: core.resync,
    pulledOnce$: core.pulledOnce$,
    awaitInitialSync: core.awaitInitialSync,
    awaitInSync: core.awaitInSync,
    close: core.close,
    signOut: core.remove,
  };
}

/**
 * Deletes a closed replica of `userId`, queue included (R1), without opening it: for the
 * replica a refused session left behind when someone else signs in on the device.
 */
export async function deleteReplica(
  userId: string,
  indexedDB: IndexedDbSource = browserIndexedDb(),
): Promise<void> {
  await deleteReplicaFiles(indexedDB, userId);
}

/** The replica's type, for tests and tools that inspect it directly. */
export type { Replica } from './database.ts';
/** Document type stored in the replica. */
export type { ReplicaDoc };
