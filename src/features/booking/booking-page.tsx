import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { map } from 'rxjs';
import { css } from 'styled-system/css';
import { listFixedDoctors, type ListedDoctor } from '@/domain/doctors/fixed-doctors.ts';
import { useObservable, useSyncSessionWhen, type SyncSession } from '@/session/sync-provider.tsx';
import { useAuth } from '@/session/auth-context.ts';
import { toPublicDoctor } from './public-doctor.ts';
import { DoctorCard } from './doctor-card.tsx';
import { appConfig } from '@/lib/config.ts';
import { Alert } from '@/ui/alert.tsx';
import { Button } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';
import { Container } from '@/ui/container.tsx';
import { Skeleton } from '@/ui/skeleton.tsx';
import { BookingFlowProvider, useBookingFlow } from './booking-flow.tsx';
import { DoctorAvailability } from './doctor-availability.tsx';
import { useFirstSchedule, type FirstSchedule } from './first-schedule.ts';
import { holdFirstPaint } from '@/lib/first-paint.ts';
import type { LoginDialogComponent, ScheduleEditorComponent } from '@/session/feature-slots.ts';
import { whenIdleAfterPaint } from '@/lib/when-idle.ts';
import { useReplicaFacts } from './replica-facts.ts';

export const BOOKING_PAGE_TEXTS = {
  title: 'Agende sua consulta',
  subtitle: 'Escolha o profissional e o melhor horário para a sua teleconsulta.',
  errorTitle: 'Erro ao Carregar Médicos',
  errorDescription: 'Não foi possível buscar os dados dos médicos. Tente novamente.',
  retry: 'Tentar novamente',
  empty: 'Nenhum médico disponível',
  openEditor: 'Editar Horários',
  closeEditor: 'Fechar Editor',
} as const;

function CardSkeleton() {
  return (
    <Card className={css({ display: 'grid', gap: '5', md: { gridTemplateColumns: '5fr 6fr' } })}>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
        <div className={css({ display: 'flex', gap: '4' })}>
          <Skeleton className={css({ w: '24', h: '24', borderRadius: 'full' })} />
          <div className={css({ flex: '1', display: 'flex', flexDirection: 'column', gap: '2' })}>
            <Skeleton className={css({ h: '6', w: '3/4' })} />
            <Skeleton className={css({ h: '4', w: '1/2' })} />
            <Skeleton className={css({ h: '4', w: '1/3' })} />
          </div>
        </div>
        <Skeleton className={css({ h: '16' })} />
      </div>
      <Skeleton className={css({ h: '48' })} />
    </Card>
  );
}

type DoctorsState =
  { kind: 'loading' } | { kind: 'error' } | { kind: 'ready'; doctors: ListedDoctor[] };

const FIXED_NAMES = appConfig.fixedDoctors.map((d) => d.publicName);

/** The fixed doctors from the replica; skeletons only while nothing is local yet. */
function useListedDoctors({ engine, failed }: SyncSession): {
  state: DoctorsState;
  retry: () => void;
} {
  const rows$ = useMemo(
    () =>
      engine?.doctors$.pipe(
        map((rows) => listFixedDoctors(rows.map(toPublicDoctor), FIXED_NAMES)),
      ) ?? null,
    [engine],
  );
  const raw$ = useMemo(() => engine?.doctors$ ?? null, [engine]);
  const doctors = useObservable(rows$, undefined);
  const rows = useObservable(raw$, undefined);
  const status = useReplicaFacts(engine, 'medicos');
  const retry = () => engine?.resync();

  if (failed) return { state: { kind: 'error' }, retry };
  if (!doctors || !rows || !status) return { state: { kind: 'loading' }, retry };
  if (rows.length === 0 && !status.synced) {
    const cannotLoad = !status.online || status.failing;
    return { state: { kind: cannotLoad ? 'error' : 'loading' }, retry };
  }
  return { state: { kind: 'ready', doctors }, retry };
}

/** Has the replica finished a first sync in this page life? Once true it stays true. */
function useReplicaSynced({ engine }: SyncSession): boolean {
  const status = useReplicaFacts(engine, 'medicos');
  const now = engine !== null && status?.synced === true;
  const [synced, setSynced] = useState(now);
  if (now && !synced) setSynced(true);
  return synced || now;
}

/**
 * Where the page reads its doctors and slots from. The first response (first-schedule.ts)
 * paints them; the replica engine is asked for after that paint, once the page is idle, and takes over once its first
 * sync is done, so the same cards and grids are drawn from the same rows and nothing moves.
 * When the first response fails (offline), the replica is opened at once: a returning visitor
 * sees the doctors and slots it kept.
 */
function useScheduleSource(): {
  session: SyncSession;
  first: FirstSchedule | null;
  replicaSynced: boolean;
} {
  const [wantReplica, setWantReplica] = useState(false);
  const session = useSyncSessionWhen(wantReplica);
  const replicaSynced = useReplicaSynced(session);
  const [firstWanted] = useState(() => !replicaSynced);
  const first = useFirstSchedule(firstWanted);
  const settled = !firstWanted || first.kind !== 'loading';
  // What waits for the first paint (supabase-js) waits for these doctors and slots too.
  useEffect(() => (settled ? undefined : holdFirstPaint()), [settled]);
  useEffect(() => {
    if (!settled || wantReplica) return;
    if (first.kind !== 'ready') {
      setWantReplica(true);
      return;
    }
    return whenIdleAfterPaint(() => setWantReplica(true));
  }, [settled, wantReplica, first.kind]);
  const useFirst = firstWanted && first.kind !== 'failed';
  return { session, first: useFirst ? first : null, replicaSynced };
}

/** `?login=true` for a visitor opens the patient login; a login then lands on /agendamentos. */
function useLoginQuery() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { loading, session } = useAuth();
  const { openLogin } = useBookingFlow();
  const opened = useRef(false);
  const wantsLogin = params.get('login') === 'true';
  useEffect(() => {
    if (!wantsLogin || loading || session || opened.current) return;
    opened.current = true;
    openLogin(() => void navigate('/agendamentos', { replace: true }));
  }, [wantsLogin, loading, session, openLogin, navigate]);
}

/** The signed-in doctor's id when they own one of the listed doctors (docs/product-rules.md §2 "Booking page", ?edit=1). */
function useOwnListedDoctor(state: DoctorsState, { engine }: SyncSession): string | null {
  const { role } = useAuth();
  const own$ = useMemo(
    () => (role === 'medico' && engine ? engine.ownDoctor$ : null),
    [role, engine],
  );
  const own = useObservable(own$, null);
  if (state.kind !== 'ready' || !own) return null;
  return state.doctors.some((d) => d.id === own.id) ? own.id : null;
}

/** The first response as the page's doctor list, until the replica takes over. */
function firstDoctors(first: FirstSchedule): DoctorsState {
  if (first.kind !== 'ready') return { kind: 'loading' };
  return {
    kind: 'ready',
    doctors: listFixedDoctors(first.doctors.map(toPublicDoctor), FIXED_NAMES),
  };
}

function BookingContent({ ScheduleEditor }: { ScheduleEditor: ScheduleEditorComponent }) {
  const { session, first, replicaSynced } = useScheduleSource();
  const replica = useListedDoctors(session);
  const replicaShown = replicaSynced && replica.state.kind === 'ready';
  // The same doctor objects from one render to the next, so a grid redraws only on new rows.
  const fromFirst = useMemo(() => (first ? firstDoctors(first) : null), [first]);
  const state = fromFirst && !replicaShown ? fromFirst : replica.state;
  const { retry } = replica;
  const { engine } = session;
  const [params, setParams] = useSearchParams();
  const ownId = useOwnListedDoctor(state, session);
  const editing = params.get('edit') === '1' && ownId !== null;
  useLoginQuery();

  const toggleEditor = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (editing) next.delete('edit');
        else next.set('edit', '1');
        return next;
      },
      { replace: true },
    );

  let body;
  if (state.kind === 'loading') {
    body = (
      <div aria-busy="true" aria-label="Carregando médicos" className={list}>
        <CardSkeleton />
        <CardSkeleton />
      </div>
    );
  } else if (state.kind === 'error') {
    body = (
      <Alert tone="destructive" role="alert" title={BOOKING_PAGE_TEXTS.errorTitle}>
        <p>{BOOKING_PAGE_TEXTS.errorDescription}</p>
        <Button variant="outline" size="sm" className={css({ mt: '3' })} onClick={retry}>
          {BOOKING_PAGE_TEXTS.retry}
        </Button>
      </Alert>
    );
  } else if (state.doctors.length === 0) {
    body = (
      <p role="status" className={css({ fontWeight: 'semibold', textAlign: 'center', py: '10' })}>
        {BOOKING_PAGE_TEXTS.empty}
      </p>
    );
  } else if (editing && engine && ownId) {
    body = (
      <Suspense fallback={<CardSkeleton />}>
        <ScheduleEditor engine={engine} medicoId={ownId} />
      </Suspense>
    );
  } else {
    body = (
      <div className={list}>
        {state.doctors.map((doctor) => (
          <DoctorCard key={doctor.id} doctor={doctor}>
            <DoctorAvailability
              doctor={doctor}
              initial={
                first?.kind === 'ready'
                  ? { blocks: first.blocks.get(doctor.id), taken: first.taken.get(doctor.id) }
                  : undefined
              }
            />
          </DoctorCard>
        ))}
      </div>
    );
  }

  return (
    <Container className={css({ py: { base: '8', md: '12' } })}>
      <header className={css({ mb: '8', textAlign: { base: 'left', md: 'center' } })}>
        <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'extrabold' })}>
          {BOOKING_PAGE_TEXTS.title}
        </h1>
        <p className={css({ mt: '2', color: 'fg.muted' })}>{BOOKING_PAGE_TEXTS.subtitle}</p>
        {ownId && (
          <Button variant="outline" size="sm" className={css({ mt: '4' })} onClick={toggleEditor}>
            {editing ? BOOKING_PAGE_TEXTS.closeEditor : BOOKING_PAGE_TEXTS.openEditor}
          </Button>
        )}
      </header>
      {body}
    </Container>
  );
}

const list = css({ display: 'flex', flexDirection: 'column', gap: '6' });

/**
 * /agendamentos: the fixed doctors with their live availability (docs/product-rules.md §2
 * "Booking page"). The app composes in the owner's editor (?edit=1) and the visitor's login
 * dialog.
 */
export function BookingPage({
  scheduleEditor,
  loginDialog,
}: {
  scheduleEditor: ScheduleEditorComponent;
  loginDialog: LoginDialogComponent;
}) {
  return (
    <BookingFlowProvider LoginDialog={loginDialog}>
      <BookingContent ScheduleEditor={scheduleEditor} />
    </BookingFlowProvider>
  );
}
