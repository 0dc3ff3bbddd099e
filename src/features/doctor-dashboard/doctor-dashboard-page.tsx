import { Suspense, useEffect, type ReactNode } from 'react';
import { preloadable } from '@/lib/preloadable.tsx';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { css } from 'styled-system/css';
import type { MedicoDoc } from '../../../sync/index.ts';
import { doctorGreeting } from '@/domain/doctors/greeting.ts';
import { useAuth } from '@/session/auth-context.ts';
import { useSignOutToHome } from '@/session/use-sign-out.ts';
import { Alert } from '@/ui/alert.tsx';
import { Button } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';
import { Container } from '@/ui/container.tsx';
import { DashboardShell } from '@/ui/dashboard-shell.tsx';
import { PageSpinner } from '@/ui/spinner.tsx';
import { DoctorActionFeedback } from './action-feedback.tsx';
import { AppointmentsTab } from './appointments-tab.tsx';
import { useOwnDoctor } from './use-own-doctor.ts';
import type { ScheduleEditorComponent } from '@/session/feature-slots.ts';
import { LOAD_ERROR_TEXTS, LoadError } from '@/ui/load-error.tsx';
import { useSyncEngine } from '@/session/sync-provider.tsx';
import { useFirstConsultas, type FirstConsultas } from './first-consultas.ts';
import { DOCTOR_SECTIONS, type Section } from './sections.ts';

/**
 * The panel opens on 'Consultas'; the other sections load when first opened, so their code
 * (today's agenda, the profile form and its validation, avatar upload, PIX key, the weekly
 * schedule editor, finance, help) is not part of the dashboard's first load. The service
 * worker precaches every chunk, so they open offline too.
 */
const Today = preloadable(() => import('./today-tab.tsx').then((m) => m.TodayTab));
const Profile = preloadable(() => import('./profile-tab.tsx').then((m) => m.ProfileTab));
const Schedule = preloadable(() => import('./schedule-tab.tsx').then((m) => m.ScheduleTab));
const Finance = preloadable(() => import('./finance-tab.tsx').then((m) => m.FinanceTab));
const Help = preloadable(() => import('./help-tab.tsx').then((m) => m.HelpTab));

export const DOCTOR_BASE_PATH = '/medico/dashboard';

export const DOCTOR_DASHBOARD_TEXTS = {
  role: 'Painel de Controle',
  navLabel: 'Painel do médico',
  signOut: 'Sair',
  notFoundTitle: 'Perfil não encontrado',
  reload: 'Recarregar',
  login: 'Fazer Login',
  failedDescription:
    'Não foi possível abrir os dados salvos neste dispositivo. Recarregue a página para tentar novamente.',
} as const;

function isSection(value: string): value is Section {
  return DOCTOR_SECTIONS.some((s) => s.value === value);
}

/** The code of each section that loads on first opening (Consultas is part of the page). */
const SECTION_CODE: Partial<Record<Section, () => Promise<unknown>>> = {
  hoje: Today.preload,
  perfil: Profile.preload,
  agenda: Schedule.preload,
  financeiro: Finance.preload,
  ajuda: Help.preload,
};

/**
 * Starts loading the opened section's code at once, while the replica opens: the section
 * renders only once the doctor's record is read, and by then its code is in, so it renders
 * without suspending (`preloadable`). A failed load is the section's to report when it renders.
 */
function usePreloadedSection(segment: string): void {
  useEffect(() => {
    if (isSection(segment)) SECTION_CODE[segment]?.().catch(() => undefined);
  }, [segment]);
}

/** What the app composes into the dashboard: the other features its sections show. */
export type DoctorDashboardSlots = { scheduleEditor: ScheduleEditorComponent };

const CONTENT: Record<
  Section,
  (doctor: MedicoDoc, slots: DoctorDashboardSlots, first: FirstConsultas) => ReactNode
> = {
  consultas: (doctor, _slots, first) => (
    <AppointmentsTab doctor={doctor} first={first.kind === 'ready' ? first : null} />
  ),
  hoje: (doctor) => <Today.Component doctor={doctor} />,
  perfil: (doctor) => <Profile.Component doctor={doctor} />,
  agenda: (doctor, slots) => <Schedule.Component doctor={doctor} Editor={slots.scheduleEditor} />,
  financeiro: (doctor) => <Finance.Component doctor={doctor} />,
  ajuda: (doctor) => <Help.Component doctor={doctor} />,
};

/** A full-page card for the doctor's record that is missing or could not be read. */
function DoctorRecordCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container className={css({ py: '16', display: 'flex', justifyContent: 'center' })}>
      <Card className={css({ maxW: 'md', textAlign: 'center' })}>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{title}</h1>
        <div className={css({ mt: '4', textAlign: 'left' })}>{children}</div>
      </Card>
    </Container>
  );
}

/** docs/product-rules.md §2: an account with no linked doctor record, with a way to retry or change account. */
function DoctorNotFound() {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  return (
    <DoctorRecordCard title={DOCTOR_DASHBOARD_TEXTS.notFoundTitle}>
      <Alert tone="amber">{LOAD_ERROR_TEXTS.notFound}</Alert>
      <div
        className={css({
          mt: '6',
          display: 'flex',
          gap: '3',
          justifyContent: 'center',
          flexWrap: 'wrap',
        })}
      >
        <Button onClick={() => window.location.reload()}>{DOCTOR_DASHBOARD_TEXTS.reload}</Button>
        <Button
          variant="outline"
          onClick={() => void signOut().then(() => navigate('/acesso-medico', { replace: true }))}
        >
          {DOCTOR_DASHBOARD_TEXTS.login}
        </Button>
      </div>
    </DoctorRecordCard>
  );
}

/** /medico/dashboard/*: the doctor's panel; the URL's segment picks the section. */
export function DoctorDashboardPage(slots: DoctorDashboardSlots) {
  const segment = (useParams()['*'] ?? '').split('/')[0] ?? '';
  const { session, loading, profile, user } = useAuth();
  const own = useOwnDoctor();
  const engine = useSyncEngine();
  const signOut = useSignOutToHome();
  usePreloadedSection(segment);
  const current: Section = isSection(segment) ? segment : 'consultas';
  const first = useFirstConsultas(current === 'consultas');

  if (!loading && !session) return <Navigate to="/" replace />;
  if (segment !== '' && !isSection(segment)) {
    return <Navigate to={`${DOCTOR_BASE_PATH}/consultas`} replace />;
  }
  // Consultas may open on the first read's record (first-consultas.ts); the other sections
  // edit or read the replica, and wait for its own.
  const doctor =
    own.state === 'found'
      ? own.doctor
      : own.state === 'loading' && current === 'consultas' && first.kind === 'ready'
        ? first.doctor
        : null;
  if (own.state === 'failed' || own.state === 'fetch-failed') {
    // A replica that could not be opened needs the page again; a failed fetch, another pull.
    const lines =
      own.state === 'failed'
        ? [DOCTOR_DASHBOARD_TEXTS.failedDescription]
        : [LOAD_ERROR_TEXTS.profileFetch, own.message];
    return (
      <DoctorRecordCard title={LOAD_ERROR_TEXTS.profile}>
        <LoadError
          lines={lines}
          onRetry={() =>
            own.state === 'failed' || !engine ? window.location.reload() : engine.resync()
          }
        />
      </DoctorRecordCard>
    );
  }
  if (own.state === 'missing') return <DoctorNotFound />;
  if (!doctor) return <PageSpinner />;

  const fullName = profile?.full_name || doctor.name || user?.email || '';
  return (
    <Container className={css({ py: { base: '4', md: '10' } })}>
      <DashboardShell
        person={<span data-testid="doctor-name">{doctorGreeting(fullName)}</span>}
        role={DOCTOR_DASHBOARD_TEXTS.role}
        navLabel={DOCTOR_DASHBOARD_TEXTS.navLabel}
        basePath={DOCTOR_BASE_PATH}
        sections={DOCTOR_SECTIONS}
        current={current}
        signOutLabel={DOCTOR_DASHBOARD_TEXTS.signOut}
        onSignOut={() => void signOut()}
      >
        <DoctorActionFeedback>
          <Suspense fallback={<PageSpinner />}>{CONTENT[current](doctor, slots, first)}</Suspense>
        </DoctorActionFeedback>
      </DashboardShell>
    </Container>
  );
}
