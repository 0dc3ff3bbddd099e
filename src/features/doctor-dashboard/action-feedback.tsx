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
import { map } from 'rxjs';
import {
  isScheduleChange,
  scheduleSnapshot,
  type ScheduleSnapshot,
} from '@/domain/appointments/live-changes.ts';
import {
  MUTATIONS,
  outcomeToast,
  type AppointmentView,
  type MutationKind,
  type SyncEngine,
  type SyncEvent,
} from '../../../sync/index.ts';
import { LIVE_TEXTS } from '@/domain/appointments/live-texts.ts';
import { showToast } from '@/lib/toast.ts';
import { useObservable, useSyncSession } from '@/session/sync-provider.tsx';

/** The actions whose outcome the dashboard reports: a doctor's, with texts in sync's MUTATIONS. */
function isDoctorAction(kind: MutationKind): boolean {
  const { roles, texts } = MUTATIONS[kind];
  return texts !== null && roles.includes('medico');
}

/** A doctor's action the server refused: already undone on screen, its reason kept to show. */
export type ActionRejection = { mutationId: string; kind: MutationKind; message: string };

type Feedback = {
  /** The doctor's appointments from the replica (one subscription for every section). */
  appointments: AppointmentView[] | undefined;
  rejections: ReadonlyMap<string, ActionRejection>;
  dismissRejection: (appointmentId: string) => void;
};

const FeedbackContext = createContext<Feedback>({
  appointments: undefined,
  rejections: new Map(),
  dismissRejection: () => undefined,
});

/** Rows of the first sync are the baseline: only changes after it are someone's doing. */
function useLiveScheduleToast(
  appointments: AppointmentView[] | undefined,
  engine: SyncEngine | null,
): void {
  const synced$ = useMemo(
    () => engine?.status$.pipe(map((s) => s.initialSync.done)) ?? null,
    [engine],
  );
  const synced = useObservable(synced$, false);
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
  const appointments$ = useMemo(() => engine?.appointments$ ?? null, [engine]);
  const appointments = useObservable(appointments$, undefined);

  useEffect(() => {
    if (!engine) return;
    const onEvent = (event: SyncEvent) => {
      if (event.type !== 'mutation-applied' && event.type !== 'mutation-rejected') return;
      const { kind, appointmentId, id } = event.mutation;
      if (!isDoctorAction(kind)) return;
      const applied = event.type === 'mutation-applied';
      const toast = outcomeToast(kind, { applied, message: event.message });
      if (toast) showToast(toast);
      if (!applied) {
        setRejections((current) =>
          new Map(current).set(appointmentId, { mutationId: id, kind, message: event.message }),
        );
      }
    };
    const sub = engine.events$.subscribe(onEvent);
    return () => sub.unsubscribe();
  }, [engine]);

  useLiveScheduleToast(appointments, engine);

  const dismissRejection = useCallback((appointmentId: string) => {
    setRejections((current) => {
      if (!current.has(appointmentId)) return current;
      const next = new Map(current);
      next.delete(appointmentId);
      return next;
    });
  }, []);

  const value = useMemo(
    () => ({ appointments, rejections, dismissRejection }),
    [appointments, rejections, dismissRejection],
  );
  return <FeedbackContext.Provider value={value}>{children}</FeedbackContext.Provider>;
}

export function useDoctorFeedback(): Feedback {
  return useContext(FeedbackContext);
}
