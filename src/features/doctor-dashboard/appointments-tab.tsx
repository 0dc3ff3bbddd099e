import { memo, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { css } from 'styled-system/css';
import { pageCountOf, paginate } from '@/domain/appointments/pagination.ts';
import type { MedicoDoc, SyncEngine } from '../../../sync/index.ts';
import { useSyncSession } from '@/session/sync-provider.tsx';
import { ERROR_MESSAGES } from '@/domain/errors/messages.ts';
import { SYNC_ERROR_TITLES, useSyncErrorToast } from '@/session/sync-error-toast.ts';
import { Alert } from '@/ui/alert.tsx';
import { Button } from '@/ui/button.tsx';
import { TextField } from '@/ui/field.tsx';
import { Skeleton } from '@/ui/skeleton.tsx';
import { Tabs } from '@/ui/tabs.tsx';
import { useDoctorAppointments, type ActionRejection } from './action-feedback.tsx';
import { DoctorAppointmentCard } from './doctor-appointment-card.tsx';
import { doctorLists, filterIndexed, type Indexed } from './doctor-lists.ts';
import type { FirstConsultasReady } from './first-consultas.ts';

export const CONSULTAS_TEXTS = {
  title: 'Consultas',
  upcoming: 'Próximas',
  history: 'Histórico',
  tabsLabel: 'Consultas do médico',
  search: 'Buscar por paciente ou protocolo',
  searchPlaceholder: 'Ex.: Maria Silva ou SJ-2026-…',
  emptyUpcoming: 'Nenhuma consulta agendada.',
  emptyHistory: 'Nenhuma consulta no histórico.',
  noMatch: 'Nenhuma consulta encontrada para esta busca.',
  previous: 'Anterior',
  next: 'Próxima',
  loadError: SYNC_ERROR_TITLES.agendamentos,
  loadErrorDescription: ERROR_MESSAGES.replicaUnavailable,
} as const;

const T = CONSULTAS_TEXTS;
type TabValue = 'proximas' | 'historico';

function pageLabel(page: number, pageCount: number): string {
  return `Página ${page} de ${pageCount}`;
}

type ListProps = {
  tab: TabValue;
  items: readonly Indexed[];
  /** How many the whole list holds when `items` is only its first page (the first read). */
  total?: number;
  page: number;
  /** Stable across renders, so a page change re-renders only its own tab's list. */
  onPage: (tab: TabValue, page: number) => void;
  empty: string;
  /** The doctor's room choice in perfil (medicos.sala_consulta). */
  roomChoice: string | null;
  /** Null while the first read is shown: cards and page changes wait for the replica. */
  engine: SyncEngine | null;
  rejections: ReadonlyMap<string, ActionRejection>;
  onDismissRejection: (appointmentId: string) => void;
};

/** One tab's page of cards and its own page counter (docs/product-rules.md §9: 10 per page per tab). */
const AppointmentList = memo(function AppointmentList(props: ListProps) {
  const current = paginate(props.items, props.page);
  const pageCount = props.total === undefined ? current.pageCount : pageCountOf(props.total);
  const readOnly = props.engine === null;
  if (props.items.length === 0) {
    return <p className={css({ color: 'fg.muted', py: '6' })}>{props.empty}</p>;
  }
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <ul
        data-testid="doctor-appointments"
        className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
      >
        {current.items.map(({ view }) => (
          <li key={view.id}>
            <DoctorAppointmentCard
              appointment={view}
              roomChoice={props.roomChoice}
              engine={props.engine}
              rejection={props.rejections.get(view.id)}
              onDismissRejection={props.onDismissRejection}
            />
          </li>
        ))}
      </ul>
      {pageCount > 1 && (
        <nav
          aria-label="Paginação"
          className={css({
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: '3',
          })}
        >
          <Button
            size="sm"
            variant="outline"
            disabled={readOnly || !current.hasPrevious}
            onClick={() => props.onPage(props.tab, current.page - 1)}
          >
            {T.previous}
          </Button>
          <span aria-live="polite" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            {pageLabel(current.page, pageCount)}
          </span>
          <Button
            size="sm"
            variant="outline"
            disabled={readOnly || !current.hasNext}
            onClick={() => props.onPage(props.tab, current.page + 1)}
          >
            {T.next}
          </Button>
        </nav>
      )}
    </div>
  );
});

function ListSkeleton() {
  return (
    <div
      aria-busy="true"
      aria-label="Carregando consultas"
      className={css({ display: 'grid', gap: '3' })}
    >
      <Skeleton className={css({ h: '40' })} />
      <Skeleton className={css({ h: '40' })} />
    </div>
  );
}

type AppointmentsTabProps = {
  doctor: MedicoDoc;
  /** The first read (first-consultas.ts), shown read-only until the replica's first sync is in. */
  first: FirstConsultasReady | null;
};

/**
 * consultas: the doctor's upcoming and past appointments from the replica, live; on a device
 * without the replica, 'Próximas' page 1 from the first read until the replica takes over.
 */
export function AppointmentsTab({ doctor, first }: AppointmentsTabProps) {
  const { engine, failed } = useSyncSession();
  useSyncErrorToast(engine, 'agendamentos');
  const { appointments, synced, rejections, dismissRejection } = useDoctorAppointments();
  const [tab, setTab] = useState<TabValue>('proximas');
  const [query, setQuery] = useState('');
  const [pages, setPages] = useState({ proximas: 1, historico: 1 });
  // Typing stays responsive with thousands of rows: the list follows a step behind if it must.
  const deferredQuery = useDeferredValue(query);
  const setPage = useCallback(
    (value: TabValue, page: number) => setPages((p) => ({ ...p, [value]: page })),
    [],
  );
  // The replica takes over from the first read once its first sync is in: a list still
  // filling would change the counts and the cards under the doctor's eyes.
  const shown = first && !(synced && appointments) ? first : null;

  const lists = useMemo(() => (appointments ? doctorLists(appointments) : null), [appointments]);
  const upcoming = useMemo(
    () => (lists ? filterIndexed(lists.upcoming, deferredQuery) : []),
    [lists, deferredQuery],
  );
  const history = useMemo(
    () => (lists ? filterIndexed(lists.history, deferredQuery) : []),
    [lists, deferredQuery],
  );

  if (failed) {
    return (
      <Alert tone="destructive" role="alert" title={T.loadError}>
        <p>{T.loadErrorDescription}</p>
      </Alert>
    );
  }

  const searching = deferredQuery.trim() !== '';
  const listProps = (value: TabValue, items: readonly Indexed[], empty: string, total?: number) => (
    <AppointmentList
      tab={value}
      items={items}
      total={total}
      page={pages[value]}
      onPage={setPage}
      empty={searching ? T.noMatch : empty}
      roomChoice={doctor.sala_consulta}
      engine={shown ? null : engine}
      rejections={rejections}
      onDismissRejection={dismissRejection}
    />
  );
  const items = shown
    ? [
        {
          value: 'proximas',
          label: `${T.upcoming} (${shown.upcomingCount})`,
          content: listProps('proximas', shown.upcoming, T.emptyUpcoming, shown.upcomingCount),
        },
        // The first read holds 'Próximas' only: 'Histórico' waits for the replica.
        {
          value: 'historico',
          label: `${T.history} (${shown.historyCount})`,
          content: <ListSkeleton />,
        },
      ]
    : [
        {
          value: 'proximas',
          label: `${T.upcoming} (${upcoming.length})`,
          content: listProps('proximas', upcoming, T.emptyUpcoming),
        },
        {
          value: 'historico',
          label: `${T.history} (${history.length})`,
          content: listProps('historico', history, T.emptyHistory),
        },
      ];

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{T.title}</h1>
      <TextField
        label={T.search}
        type="search"
        placeholder={T.searchPlaceholder}
        value={query}
        // The first read holds one page: searching waits for the replica's whole list.
        disabled={shown !== null}
        onChange={(e) => {
          setQuery(e.target.value);
          setPages({ proximas: 1, historico: 1 });
        }}
      />
      {!lists && !shown ? (
        <ListSkeleton />
      ) : (
        // Which search the shown lists answer: tests and bench/web wait on it.
        <div
          data-testid="consultas-results"
          data-query={deferredQuery}
          data-source={shown ? 'first' : 'replica'}
        >
          <Tabs
            label={T.tabsLabel}
            value={tab}
            onValueChange={(value) => setTab(value === 'historico' ? 'historico' : 'proximas')}
            items={items}
          />
        </div>
      )}
    </div>
  );
}
