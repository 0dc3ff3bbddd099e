/**
 * The engine as the app sees it: the replica's views, the queued actions, the direct writes
 * and the engine's life, put together over a started engine (engine.ts).
 */
import { map, type Observable } from 'rxjs';
import { startEngine } from './engine.ts';
import type { EngineOptions } from './engine-options.ts';
import { localWrites, type LocalWrites } from './local-writes.ts';
import type { OccupiedSlot } from './outbox/overlay.ts';
import type { Mutation } from './outbox/types.ts';
import { queuedActions, type QueuedActions } from './queued-actions.ts';
import { yieldToMainThread } from './runtime.ts';
import type { AgendaMedicoDoc, GuiaDoc, MedicoDoc, PerfilDoc } from './schemas.ts';
import type { SyncStatus } from './status.ts';
import type { SyncEvent } from './sync-events.ts';
import type { TableName } from './tables.ts';
import type { AppointmentView } from './appointment-view.ts';

/** What `createSyncEngine` returns; see sync/SPEC.md for the rules behind each member. */
export type SyncEngine = QueuedActions &
  LocalWrites & {
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
    /**
     * The appointments starting in [from, to) (ISO instants, e.g. a São Paulo day), as
     * `appointments$` shows them, read through an index: the whole replica is not loaded.
     */
    appointmentsBetween$(from: string, to: string): Observable<AppointmentView[]>;
    /** One appointment; accepts the optimistic id a booking returned, before and after sync. */
    appointment$(id: string): Observable<AppointmentView | null>;
    /** A guide by id (the /guia/{id} page). */
    guide$(id: string): Observable<GuiaDoc | null>;
    /** The signed-in user's profile row. */
    profile$: Observable<PerfilDoc | null>;
    /** The outbox: queued and rejected mutations, in order. */
    mutations$: Observable<Mutation[]>;

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
 * Opens the replica for a visitor (`user: null`), a patient or a doctor and starts syncing.
 * One engine per signed-in user; create a new one when the user changes.
 */
export async function createSyncEngine(opts: EngineOptions): Promise<SyncEngine> {
  // The engine's modules (RxDB, Dexie) are set up in the task that loaded them; the start
  // begins in the next one, rather than both in one long task.
  await yieldToMainThread();
  const core = await startEngine(opts);
  const { views, outbox } = core;
  return {
    status$: core.status$,
    events$: core.events$,
    doctors$: views.doctors$,
    doctor$: views.doctor$,
    ownDoctor$: views.ownDoctor$,
    availability$: views.availability$,
    occupiedSlots$: views.occupiedSlots$,
    appointments$: views.appointments$,
    appointmentsBetween$: views.appointmentsBetween$,
    appointment$: views.appointment$,
    guide$: views.guide$,
    profile$: views.profile$,
    mutations$: outbox.state$.pipe(map((s) => s.mutations)),
    ...queuedActions(core),
    ...localWrites(core),
    resync: core.resync,
    pulledOnce$: core.pulledOnce$,
    awaitInitialSync: core.awaitInitialSync,
    awaitInSync: core.awaitInSync,
    close: core.close,
    signOut: core.remove,
  };
}
