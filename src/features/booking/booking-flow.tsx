import { mapWriteError, shownMessage } from '@/domain/errors/map-server-error.ts';
import { ERROR_MESSAGES } from '@/domain/errors/messages.ts';
import {
  createContext,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useNavigate } from 'react-router-dom';
import type { Slot } from '@/domain/availability/slots.ts';
import {
  createBookingDetails,
  type BookableDoctor,
  type BookingDetails,
} from '@/domain/schemas/booking.ts';
import { useSyncSessionWhen } from '@/session/sync-provider.tsx';
import { useAuth } from '@/session/auth-context.ts';
import type { AuthSuccess, LoginDialogComponent } from '@/session/feature-slots.ts';
import { showToast } from '@/lib/toast.ts';
import { useHoldUpdates } from '@/lib/update-guard.ts';
import { toCheckoutState } from '@/domain/booking/checkout-state.ts';
import {
  forgetRememberedBooking,
  readRememberedBooking,
  rememberBooking,
} from './pending-booking.ts';

export const BOOKING_TEXTS = {
  accessDenied: 'Acesso negado: Você precisa estar logado como paciente para agendar.',
  fallbackTitle: 'Não é possível agendar',
  fallbackDescription: 'A agenda do médico não pôde ser carregada. Tente novamente mais tarde.',
  errorTitle: 'Erro no Agendamento',
  /** docs/product-rules.md §4 step 5: a booking refused for missing data. */
  missingDataTitle: 'Dados incompletos',
  errorDescription: ERROR_MESSAGES.bookingFailed,
} as const;

type BookingFlow = {
  /** A slot was picked in a grid; `fallback` when that grid could not load its schedule. */
  requestBooking: (doctor: BookableDoctor, slot: Slot, fallback: boolean) => void;
  /** The slot being booked right now, so grids wait instead of taking a second click. */
  selectingKey: string | null;
  /** Opens the patient login modal (the page's `?login=true`); `onLogin` runs after a login. */
  openLogin: (onLogin?: () => void) => void;
};

const BookingFlowContext = createContext<BookingFlow | null>(null);

export function useBookingFlow(): BookingFlow {
  const flow = useContext(BookingFlowContext);
  if (!flow) throw new Error('useBookingFlow must be used inside <BookingFlowProvider>');
  return flow;
}

/**
 * docs/product-rules.md §4 "Booking flow" for every grid below it: a visitor's choice is remembered while the
 * login modal is open and booked as soon as the patient's replica is ready; a booking is a
 * local write (it works offline) followed by /checkout.
 */
export function BookingFlowProvider({
  children,
  LoginDialog,
}: {
  children: ReactNode;
  /** The login/sign-up dialog the app composes in (features/auth). */
  LoginDialog: LoginDialogComponent;
}) {
  const navigate = useNavigate();
  const { loading, session, role } = useAuth();
  // A patient's replica opens when they sign in (SyncProvider); the flow itself never asks
  // for it, so a visitor's page paints before the engine loads.
  const { engine, user: syncUser } = useSyncSessionWhen(false);
  const [modalOpen, setModalOpen] = useState(false);
  // Mounted from its first opening on, so closing it keeps its exit and focus return.
  const [modalMounted, setModalMounted] = useState(false);
  if (modalOpen && !modalMounted) setModalMounted(true);
  const [selecting, setSelecting] = useState<BookingDetails | null>(null);
  const [requests, setRequests] = useState(0);
  const afterLogin = useRef<(() => void) | null>(null);
  const inFlight = useRef(false);

  useHoldUpdates(selecting !== null || modalOpen);

  const book = useCallback(
    async (details: BookingDetails) => {
      if (!engine) return;
      setSelecting(details);
      const result = await engine.book({
        medicoId: details.medico_id,
        horarioInicio: details.horario_inicio,
      });
      if (!result.ok) {
        setSelecting(null);
        showToast({
          tone: 'error',
          title: BOOKING_TEXTS.errorTitle,
          description: shownMessage(mapWriteError(result.error), BOOKING_TEXTS.errorDescription, [
            'storage-full',
          ]),
        });
        return;
      }
      await navigate('/checkout', {
        state: toCheckoutState(details, result.value.appointmentId),
      });
    },
    [engine, navigate],
  );

  // A remembered choice (a visitor's pick) turns into a booking once the session and the
  // patient's replica appear after the login modal.
  useEffect(() => {
    const remembered = readRememberedBooking();
    if (loading || !session || inFlight.current) return;
    if (!remembered) return;
    if (role !== 'paciente') {
      if (role === null) return;
      forgetRememberedBooking();
      showToast({ tone: 'error', title: BOOKING_TEXTS.accessDenied });
      return;
    }
    if (!engine || syncUser?.role !== 'paciente') return;
    inFlight.current = true;
    forgetRememberedBooking();
    void book(remembered).finally(() => {
      inFlight.current = false;
    });
  }, [loading, session, role, engine, syncUser, book, requests]);

  useEffect(() => {
    if (session) setModalOpen(false);
  }, [session]);

  const requestBooking = useCallback(
    (doctor: BookableDoctor, slot: Slot, fallback: boolean) => {
      if (fallback) {
        showToast({
          tone: 'error',
          title: BOOKING_TEXTS.fallbackTitle,
          description: BOOKING_TEXTS.fallbackDescription,
        });
        return;
      }
      if (session && role !== 'paciente') {
        showToast({ tone: 'error', title: BOOKING_TEXTS.accessDenied });
        return;
      }
      const details = createBookingDetails(doctor, slot);
      if (session && engine && syncUser?.role === 'paciente') {
        // A signed-in patient's click books at once; only a visitor's waits for a login.
        if (inFlight.current) return;
        inFlight.current = true;
        void book(details).finally(() => {
          inFlight.current = false;
        });
        return;
      }
      rememberBooking(details);
      if (!session) {
        afterLogin.current = null;
        setModalOpen(true);
      }
      setRequests((n) => n + 1);
    },
    [session, role, engine, syncUser, book],
  );

  const openLogin = useCallback((onLogin?: () => void) => {
    afterLogin.current = onLogin ?? null;
    setModalOpen(true);
  }, []);

  const onOpenChange = useCallback((open: boolean) => {
    setModalOpen(open);
    if (!open) {
      forgetRememberedBooking();
      afterLogin.current = null;
    }
  }, []);

  const onSuccess = useCallback(
    (result: AuthSuccess) => {
      setModalOpen(false);
      if (result.mode === 'signup') {
        void navigate('/cadastro-sucesso', { state: { email: result.email } });
        return;
      }
      afterLogin.current?.();
      afterLogin.current = null;
    },
    [navigate],
  );

  const value = useMemo<BookingFlow>(
    () => ({
      requestBooking,
      selectingKey: selecting ? selecting.horario_inicio : null,
      openLogin,
    }),
    [requestBooking, selecting, openLogin],
  );

  return (
    <BookingFlowContext.Provider value={value}>
      {children}
      {modalMounted && (
        <Suspense fallback={null}>
          <LoginDialog open={modalOpen} onOpenChange={onOpenChange} onSuccess={onSuccess} />
        </Suspense>
      )}
    </BookingFlowContext.Provider>
  );
}
