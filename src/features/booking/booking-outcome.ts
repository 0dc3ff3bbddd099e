import { useEffect, useMemo, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { of } from 'rxjs';
import type { AppointmentView, SyncEngine, SyncStatus } from '../../../sync/index.ts';
import { useObservable } from '@/session/sync-provider.tsx';
import { showToast } from '@/lib/toast.ts';
import { BOOKING_TEXTS } from './booking-flow.tsx';

export const SLOT_TAKEN_REASON = 'slot_taken';
export const MY_APPOINTMENTS_PATH = '/paciente/dashboard/consultas';
/** docs/product-rules.md §4 step 5: the error toast stays 5 s; the page returns to the grid after 4 s. */
export const BOOKING_ERROR_TOAST_MS = 5000;
export const BACK_TO_GRID_DELAY_MS = 4000;

export type BookingProgress = {
  /** Undefined until the replica answered; null when it has no such appointment. */
  appointment: AppointmentView | null | undefined;
  status: SyncStatus | null;
};

/** The booked appointment (optimistic until the server confirms) and the sync status. */
export function useBookingProgress(
  engine: SyncEngine | null,
  appointmentId: string | null,
): BookingProgress {
  const appointment$ = useMemo(
    () => (engine && appointmentId ? engine.appointment$(appointmentId) : null),
    [engine, appointmentId],
  );
  const status$ = useMemo(() => engine?.status$ ?? of(null), [engine]);
  return {
    appointment: useObservable(appointment$, undefined),
    status: useObservable(status$, null),
  };
}

/** The server's reasons for a booking refused for missing data (supabase/migrations/CONTRACT.md). */
const MISSING_DATA_REASONS: ReadonlySet<string> = new Set(['invalid_params', 'profile_incomplete']);

/**
 * docs/product-rules.md §4 step 5's error toast: the server's message, or the generic one,
 * under 'Dados incompletos' when data was missing.
 */
function showBookingError(message: string | null, reason: string | null = null): void {
  showToast({
    tone: 'error',
    title:
      reason !== null && MISSING_DATA_REASONS.has(reason)
        ? BOOKING_TEXTS.missingDataTitle
        : BOOKING_TEXTS.errorTitle,
    description: message ?? BOOKING_TEXTS.errorDescription,
    duration: BOOKING_ERROR_TOAST_MS,
  });
}

/**
 * docs/product-rules.md §4 "Booking flow" step 5, for a booking the server refused after the fact (it was
 * queued offline, or someone took the slot first): a taken slot sends the patient silently to
 * their appointments; any other refusal is shown and the page returns to the grid.
 */
export function useBookingRejection(appointment: AppointmentView | null | undefined): boolean {
  const navigate = useNavigate();
  const toasted = useRef(false);
  const rejection = appointment?.sync.state === 'rejected' ? appointment.sync.rejection : null;
  const reason = rejection?.reason ?? null;
  const message = rejection?.message ?? null;
  useEffect(() => {
    if (reason === null) return;
    if (reason === SLOT_TAKEN_REASON) {
      void navigate(MY_APPOINTMENTS_PATH, { replace: true });
      return;
    }
    if (!toasted.current) {
      toasted.current = true;
      showBookingError(message, reason);
    }
    const id = setTimeout(
      () => void navigate('/agendamentos', { replace: true }),
      BACK_TO_GRID_DELAY_MS,
    );
    return () => clearTimeout(id);
  }, [reason, message, navigate]);
  return rejection !== null;
}

/**
 * A guide the server refused to generate after the booking went through (e.g. the appointment
 * was cancelled before the queued request reached it): the success page would otherwise wait
 * on 'Gerando...' forever. The refusal is shown like a booking error and the patient goes to
 * their appointments, where the appointment's real state is.
 */
export function useGuideRejection(engine: SyncEngine | null, appointmentIds: readonly string[]) {
  const navigate = useNavigate();
  const key = appointmentIds.join(' ');
  useEffect(() => {
    if (!engine) return;
    const ids = new Set(key.split(' '));
    const sub = engine.events$.subscribe((event) => {
      if (event.type !== 'mutation-rejected' || event.mutation.kind !== 'generate_guide') return;
      if (!ids.has(event.mutation.appointmentId)) return;
      showBookingError(event.message || null, event.reason);
      void navigate(MY_APPOINTMENTS_PATH, { replace: true });
    });
    return () => sub.unsubscribe();
  }, [engine, key, navigate]);
}
