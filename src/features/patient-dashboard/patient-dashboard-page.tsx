import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { css } from 'styled-system/css';
import { useObservable, useSyncEngine } from '@/session/sync-provider.tsx';
import { useAuth } from '@/session/auth-context.ts';
import { useSignOutToHome } from '@/session/use-sign-out.ts';
import { Container } from '@/ui/container.tsx';
import { DashboardShell } from '@/ui/dashboard-shell.tsx';
import { PageSpinner } from '@/ui/spinner.tsx';
import { AppointmentsTab } from './appointments-tab.tsx';
import { SupportTab } from './support-tab.tsx';

/**
 * The panel opens on 'Minhas Consultas'; 'Meus Dados' (its form, validation and privacy
 * section) loads when first opened. The service worker precaches every chunk, so it opens
 * offline too.
 */
const PatientDataTab = lazy(() =>
  import('./patient-data-tab.tsx').then((m) => ({ default: m.PatientDataTab })),
);

export const DASHBOARD_TABS = [
  { value: 'consultas', label: 'Minhas Consultas' },
  { value: 'agendar', label: 'Agendar Consulta' },
  { value: 'dados', label: 'Meus Dados' },
  { value: 'suporte', label: 'Suporte' },
] as const;
type TabValue = (typeof DASHBOARD_TABS)[number]['value'];

export const DASHBOARD_TEXTS = {
  role: 'Paciente',
  home: 'Página Inicial',
  signOut: 'Sair',
  navLabel: 'Painel do paciente',
} as const;

function isTab(value: string): value is TabValue {
  return DASHBOARD_TABS.some((t) => t.value === value);
}

/** What the app composes into the dashboard: the booking page is the 'Agendar' tab. */
export type PatientDashboardSlots = { bookingPage: ReactNode };

const CONTENT: Record<TabValue, (slots: PatientDashboardSlots) => ReactNode> = {
  consultas: () => <AppointmentsTab />,
  agendar: (slots) => slots.bookingPage,
  dados: () => <PatientDataTab />,
  suporte: () => <SupportTab />,
};

function PatientName() {
  const { profile, user } = useAuth();
  const engine = useSyncEngine();
  const local$ = useMemo(() => engine?.profile$ ?? null, [engine]);
  const local = useObservable(local$, null);
  return (
    <span data-testid="patient-name">
      {local?.full_name || profile?.full_name || user?.email || ''}
    </span>
  );
}

/** /paciente/dashboard/*: the patient's panel; the URL's segment picks the tab. */
export function PatientDashboardPage(slots: PatientDashboardSlots) {
  const segment = useParams()['*'] ?? '';
  const { session, loading } = useAuth();
  const signOut = useSignOutToHome();

  if (!loading && !session) return <Navigate to="/" replace />;
  const tab = segment.split('/')[0] ?? '';
  if (tab !== '' && !isTab(tab)) return <Navigate to="/paciente/dashboard/consultas" replace />;
  const current: TabValue = tab === '' ? 'consultas' : tab;

  return (
    <Container className={css({ py: { base: '4', md: '10' } })}>
      <DashboardShell
        person={<PatientName />}
        role={DASHBOARD_TEXTS.role}
        navLabel={DASHBOARD_TEXTS.navLabel}
        basePath="/paciente/dashboard"
        sections={DASHBOARD_TABS}
        current={current}
        extraLinks={[{ to: '/', label: DASHBOARD_TEXTS.home }]}
        signOutLabel={DASHBOARD_TEXTS.signOut}
        onSignOut={() => void signOut()}
      >
        <Suspense fallback={<PageSpinner />}>{CONTENT[current](slots)}</Suspense>
      </DashboardShell>
    </Container>
  );
}
