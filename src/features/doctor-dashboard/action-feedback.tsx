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
import type { AppointmentView, MutationKind, SyncEngine, SyncEvent } from '../../../sync/index.ts';
import { showToast } from '@/lib/toast.ts';
import { useObservable, useSyncSession } from '@/session/sync-provider.tsx';
import { useSupabase } from '@/session/supabase-context.ts';

type DoctorAction = Exclude<
  MutationKind,
  'book' | 'generate_guide' | 'patient_cancel' | 'room_event'
>;

/** docs/product-rules.md §8 "Doctor actions" (and "Cancel" for the cancellation's success). */
export const ACTION_TOASTS: Record<DoctorAction, { success: string; failure: string }> = {
  confirm_payment: { success: 'Pagamento Confirmado!', failure: 'Falha ao Confirmar Pagamento' },
  check_in: { success: 'Check-in Realizado!', failure: 'Falha no Check-in' },
  cancel: { success: 'Sucesso', failure: 'Falha ao Cancelar' },
  save_meeting_link: { success: 'Link da consulta salvo!', failure: 'Erro ao salvar link' },
};

/** docs/product-rules.md §4 "Live updates". */
export const LIVE_TOAST = {
  title: 'Agenda atualizada em tempo real!',
  description: 'Um horário foi agendado ou cancelado.',
} as const;

export const NOTIFY_FUNCTION = 'notify-patient-completion';

/** A doctor's action the server refused: already undone on screen, its reason kept to show. */
export type ActionRejection = { mutationId: string; kind: DoctorAction; message: string };

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

function isDoctorAction(kind: MutationKind): kind is DoctorAction {
  return kind in ACTION_TOASTS;
}

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
      showToast({ title: LIVE_TOAST.title, description: LIVE_TOAST.description });
    }
    last.current = synced ? next : null;
  }, [appointments, synced]);
}

/**
 * The doctor's dashboard frame for data: one live list for every section, the product-rules toast
 * when the server applies or refuses an action (queued offline too), the patient-completion
 * call after a check-in, and live-change toasts.
 */
export function DoctorActionFeedback({ children }: { children: ReactNode }) {
  const { engine } = useSyncSession();
  const supabase = useSupabase();
  const [rejections, setRejections] = useState<ReadonlyMap<string, ActionRejection>>(new Map());
  const appointments$ = useMemo(() => engine?.appointments$ ?? null, [engine]);
  const appointments = useObservable(appointments$, undefined);

  useEffect(() => {
    if (!engine) return;
    const onEvent = (event: SyncEvent) => {
      if (event.type === 'mutation-applied' && isDoctorAction(event.mutation.kind)) {
        const { kind, appointmentId } = event.mutation;
        showToast({
          tone: 'success',
          title: ACTION_TOASTS[kind].success,
          description: kind === 'cancel' ? (event.message ?? undefined) : undefined,
        });
        if (kind === 'check_in') {
          // docs/product-rules.md §4: the patient is told by e-mail; a failure must not undo the check-in.
          supabase.functions
            .invoke(NOTIFY_FUNCTION, { body: { appointmentId } })
            .then(({ error }) => {
              if (error) console.warn(`${NOTIFY_FUNCTION} failed`, error);
            })
            .catch((error: unknown) => console.warn(`${NOTIFY_FUNCTION} failed`, error));
        }
      }
      if (event.type === 'mutation-rejected' && isDoctorAction(event.mutation.kind)) {
        const { kind, appointmentId, id } = event.mutation;
        showToast({
          tone: 'error',
          title: ACTION_TOASTS[kind].failure,
          description: event.message,
        });
        setRejections((current) =>
          new Map(current).set(appointmentId, { mutationId: id, kind, message: event.message }),
        );
      }
    };
    const sub = engine.events$.subscribe(onEvent);
    return () => sub.unsubscribe();
  }, [engine, supabase]);

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
