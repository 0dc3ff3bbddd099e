import { useMemo, type ReactNode } from 'react';
import { Link, Navigate, NavLink, useNavigate, useParams } from 'react-router-dom';
import { css } from 'styled-system/css';
import { useObservable, useSyncEngine } from '@/session/sync-provider.tsx';
import { useAuth } from '@/session/auth-context.ts';
import { useSignOutToHome } from '@/session/use-sign-out.ts';
import { BookingPage } from '@/features/booking/index.ts';
import { Button } from '@/ui/button.tsx';
import { Container } from '@/ui/container.tsx';
import { Tabs } from '@/ui/tabs.tsx';
import { AppointmentsTab } from './appointments-tab.tsx';
import { PatientDataTab } from './patient-data-tab.tsx';
import { SupportTab } from './support-tab.tsx';

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
  tabsLabel: 'Seções do painel',
} as const;

function isTab(value: string): value is TabValue {
  return DASHBOARD_TABS.some((t) => t.value === value);
}

const CONTENT: Record<TabValue, () => ReactNode> = {
  consultas: () => <AppointmentsTab />,
  agendar: () => <BookingPage />,
  dados: () => <PatientDataTab />,
  suporte: () => <SupportTab />,
};

function Sidebar() {
  const { profile, user } = useAuth();
  const engine = useSyncEngine();
  const local$ = useMemo(() => engine?.profile$ ?? null, [engine]);
  const local = useObservable(local$, null);
  const signOut = useSignOutToHome();
  const name = local?.full_name || profile?.full_name || user?.email || '';
  const link = css({
    display: 'block',
    px: '3',
    py: '2',
    borderRadius: 'md',
    _hover: { bg: 'bg.subtle' },
    '&[aria-current=page]': { bg: 'primary.subtle', color: 'primary.text', fontWeight: 'semibold' },
  });

  return (
    <aside
      aria-label="Menu do paciente"
      className={css({
        display: 'flex',
        flexDirection: 'column',
        gap: '4',
        p: '4',
        borderWidth: '1px',
        borderColor: 'border',
        borderRadius: 'lg',
        bg: 'bg.surface',
        alignSelf: 'start',
      })}
    >
      <div>
        <p
          data-testid="patient-name"
          className={css({ fontWeight: 'bold', wordBreak: 'break-word' })}
        >
          {name}
        </p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{DASHBOARD_TEXTS.role}</p>
      </div>
      <nav aria-label="Painel do paciente">
        <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
          {DASHBOARD_TABS.map((t) => (
            <li key={t.value}>
              <NavLink to={`/paciente/dashboard/${t.value}`} className={link}>
                {t.label}
              </NavLink>
            </li>
          ))}
          <li>
            <Link to="/" className={link}>
              {DASHBOARD_TEXTS.home}
            </Link>
          </li>
        </ul>
      </nav>
      <Button variant="outline" onClick={() => void signOut()}>
        {DASHBOARD_TEXTS.signOut}
      </Button>
    </aside>
  );
}

/** /paciente/dashboard/*: the patient's panel; the URL's segment picks the tab. */
export function PatientDashboardPage() {
  const segment = useParams()['*'] ?? '';
  const navigate = useNavigate();
  const { session, loading } = useAuth();

  if (!loading && !session) return <Navigate to="/" replace />;
  const tab = segment.split('/')[0] ?? '';
  if (tab !== '' && !isTab(tab)) return <Navigate to="/paciente/dashboard/consultas" replace />;
  const current: TabValue = tab === '' ? 'consultas' : tab;

  return (
    <Container className={css({ py: { base: '6', md: '10' } })}>
      <div
        className={css({
          display: 'grid',
          gap: '6',
          gridTemplateColumns: { base: '1fr', lg: '240px 1fr' },
        })}
      >
        <Sidebar />
        <div className={css({ minW: '0' })}>
          <Tabs
            label={DASHBOARD_TEXTS.tabsLabel}
            value={current}
            onValueChange={(value) => void navigate(`/paciente/dashboard/${value}`)}
            items={DASHBOARD_TABS.map((t) => ({
              value: t.value,
              label: t.label,
              content: CONTENT[t.value](),
            }))}
          />
        </div>
      </div>
    </Container>
  );
}
