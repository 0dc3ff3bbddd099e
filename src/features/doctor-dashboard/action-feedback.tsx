import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import {
  isScheduleChange,
  scheduleSnapshot,
  type ScheduleSnapshot,
} from '@/domain/appointments/live-changes.ts';
import type {
  Action,
  AppointmentView,
  MutationKind,
  SyncEngine,
  SyncEvent,
} from '../../../sync/index.ts';
import { LIVE_TEXTS } from '@/domain/appointments/live-texts.ts';
import { showToast } from '@/lib/toast.ts';
import { useObservable, useObservableSelect, useSyncSession } from '@/session/sync-provider.tsx';
import { loadActionRegistry } from '@/session/action-registry.ts';

/** The actions whose outcome the dashboard reports: a doctor's, with texts in sync's MUTATIONS. */
function isDoctorAction({ roles, texts }: Pick<Action<unknown>, 'roles' | 'texts'>): boolean {
  return texts !== null && roles.includes('medico');
}

/** A doctor's action the server refused: already undone on screen, its reason kept to show. */
export type ActionRejection = { mutationId: string; kind: MutationKind; message: string };

type Feedback = {
  /**
   * The doctor's appointments from the replica (one subscription for every section), once a
   * section asked for them (`useDoctorAppointments`) or the first sync is in.
   */
  appointments: AppointmentView[] | undefined;
  /** This session's first sync is in (S1): the replica's list is whole. */
  synced: boolean;
  /** A section needs the whole list: read it from now on. */
  wantAppointments: () => void;
  rejections: ReadonlyMap<string, ActionRejection>;
  dismissRejection: (appointmentId: string) => void;
};

const FeedbackContext = createContext<Feedback>({
  appointments: undefined,
  synced: false,
  wantAppointments: () => undefined,
  rejections: new Map(),
  dismissRejection: () => undefined,
});

/** Whether this session's first sync is in (S1). */
function useSynced(engine: SyncEngine | null): boolean {
  return useObservableSelect(engine?.status$ ?? null, (s) => s.initialSync.done, false);
}

/** Rows of the first sync are the baseline: only changes after it are someone's doing. */
function useLiveScheduleToast(appointments: AppointmentView[] | undefined, synced: boolean): void {
  const last = useRef<ScheduleSnapshot | null>(null);
  useEffect(() => {
    if (!appointments) return;
    const next = scheduleSnapshot(appointments);
    if (synced && last.current && isScheduleChange(last.current, next)) {
      showToast(LIVE_TEXTS.slots);
    }
    last.current = synced ? next : null;
  }, [appointments, synced]);
}

/**
 * The doctor's dashboard frame for data: one live list for every section, the product-rules toast
 * when the server applies or refuses an action (queued offline too; the texts are sync's
 * MUTATIONS), and live-change toasts. The patient hears of a check-in from the server (the
 * completion e-mail, supabase/functions/README.md), not from this device.
 */
export function DoctorActionFeedback({ children }: { children: ReactNode }) {
  const { engine } = useSyncSession();
  const [rejections, setRejections] = useState<ReadonlyMap<string, ActionRejection>>(new Map());
  const synced = useSynced(engine);
  // The whole list is read only when a section shows it or the live toast needs its baseline
  // (the first sync): the hoje list opens from the day's rows alone, never behind 10,000 others.
  const [wanted, setWanted] = useState(false);
  const wantAppointments = useCallback(() => setWanted(true), []);
  const appointments$ = useMemo(
    () => (engine && (wanted || synced) ? engine.appointments$ : null),
    [engine, wanted, synced],
  );
  const appointments = useObservable(appointments$, undefined);

  useEffect(() => {
    if (!engine) return;
    let active = true;
    const onEvent = (event: SyncEvent) => {
      if (event.type !== 'mutation-applied' && event.type !== 'mutation-rejected') return;
      // The dashboard's first paint (first-consultas.ts) downloads no action texts.
      void loadActionRegistry().then(({ MUTATIONS, outcomeToast }) => {
        const { kind, appointmentId, id } = event.mutation;
        if (!active || !isDoctorAction(MUTATIONS[kind])) return;
        const applied = event.type === 'mutation-applied';
        const toast = outcomeToast(kind, { applied, message: event.message });
        if (toast) showToast(toast);
        if (!applied) {
          setRejections((current) =>
            new Map(current).set(appointmentId, { mutationId: id, kind, message: event.message }),
          );
        }
      });
    };
    const sub = engine.events$.subscribe(onEvent);
    return () => {
      active = false;
      sub.unsubscribe();
    };
  }, [engine]);

  useLiveScheduleToast(appointments, synced);

  const dismissRejection = useCallback((appointmentId: string) => {
    setRejections((current) => {
      if (!current.has(appointmentId)) return current;
      const next = new Map(current);
      next.delete(appointmentId);
      return next;
    });
  }, []);

  const value = useMemo(
    () => ({ appointments, synced, wantAppointments, rejections, dismissRejection }),
    [appointments, synced, wantAppointments, rejections, dismissRejection],
  );
  return <FeedbackContext.Provider value={value}>{children}</FeedbackContext.Provider>;
}

/** The doctor's whole list, for a section that shows it (read from its first render on). */
export function useDoctorAppointments(): Feedback {
  const feedback = useContext(FeedbackContext);
  const { wantAppointments } = feedback;
  useEffect(wantAppointments, [wantAppointments]);
  return feedback;
}
