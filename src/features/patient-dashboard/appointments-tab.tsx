import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { css } from 'styled-system/css';
import { isPatientUpcoming } from '@/domain/appointments/lists.ts';
import { appointmentStateOf } from '@/domain/appointments/status.ts';
import { useObservable, useSyncSession } from '@/session/sync-provider.tsx';
import { ERROR_MESSAGES } from '@/domain/errors/messages.ts';
import { SYNC_ERROR_TITLES, useSyncErrorToast } from '@/session/sync-error-toast.ts';
import { loadActionRegistry } from '@/session/action-registry.ts';
import type { AppointmentView } from '../../../sync/index.ts';
import { showToast } from '@/lib/toast.ts';
import { Alert } from '@/ui/alert.tsx';
import { buttonClass } from '@/ui/button.tsx';
import { Skeleton } from '@/ui/skeleton.tsx';
import { AppointmentCard } from './appointment-card.tsx';
import { CancelDialog } from './cancel-dialog.tsx';

export const CONSULTAS_TEXTS = {
  title: 'Minhas Consultas',
  upcoming: 'Próximas consultas',
  history: 'Histórico',
  notSent: 'Agendamentos não concluídos',
  emptyUpcoming: 'Você não tem consultas agendadas.',
  emptyHistory: 'Nenhuma consulta no histórico.',
  book: 'Agendar Consulta',
  loadError: SYNC_ERROR_TITLES.agendamentos,
  loadErrorDescription: ERROR_MESSAGES.replicaUnavailable,
} as const;

/** A queued booking is upcoming until the server says otherwise. */
function isUpcoming(a: AppointmentView): boolean {
  if (a.sync.state === 'pending' && a.sync.kinds.includes('book')) return true;
  const state = appointmentStateOf(a);
  return state !== null && isPatientUpcoming(state);
}

type Lists = {
  rejected: AppointmentView[];
  upcoming: AppointmentView[];
  history: AppointmentView[];
};

function toLists(all: AppointmentView[]): Lists {
  const rejected = all.filter((a) => a.sync.state === 'rejected');
  const rest = all.filter((a) => a.sync.state !== 'rejected');
  // The replica lists newest first; the next appointment reads best at the top.
  const upcoming = rest.filter(isUpcoming).reverse();
  const history = rest.filter((a) => !isUpcoming(a));
  return { rejected, upcoming, history };
}

const section = css({ display: 'flex', flexDirection: 'column', gap: '3' });
const heading = css({ fontSize: 'lg', fontWeight: 'bold' });
const empty = css({ color: 'fg.muted', py: '4' });

function ListSkeleton() {
  return (
    <div aria-busy="true" aria-label="Carregando consultas" className={section}>
      <Skeleton className={css({ h: '28' })} />
      <Skeleton className={css({ h: '28' })} />
    </div>
  );
}

/** The server's answer to a cancellation, as its toast. */
async function showCancelOutcome(applied: boolean, message: string | null) {
  const { outcomeToast } = await loadActionRegistry();
  const toast = outcomeToast('patient_cancel', { applied, message });
  if (toast) showToast(toast);
}

/** consultas: upcoming and past appointments from the replica, live as it changes. */
export function AppointmentsTab() {
  const { engine, failed } = useSyncSession();
  useSyncErrorToast(engine, 'agendamentos');
  const lists$ = useMemo(() => engine?.appointments$ ?? null, [engine]);
  const all = useObservable(lists$, undefined);
  const lists = useMemo(() => (all ? toLists(all) : null), [all]);
  const dismiss = useCallback(
    (mutationId: string) => void engine?.dismissRejected(mutationId),
    [engine],
  );
  const [cancelling, setCancelling] = useState<AppointmentView | null>(null);
  // The server's answer to a cancellation, with its message (docs/product-rules.md §8): a
  // refusal (e.g. inside the notice) puts the card back as it was.
  useEffect(() => {
    if (!engine) return;
    const sub = engine.events$.subscribe((event) => {
      if (event.type === 'write-conflict' || event.type === 'write-rejected') return;
      if (event.mutation.kind !== 'patient_cancel') return;
      void showCancelOutcome(event.type === 'mutation-applied', event.message);
    });
    return () => sub.unsubscribe();
  }, [engine]);

  if (failed) {
    return (
      <Alert tone="destructive" role="alert" title={CONSULTAS_TEXTS.loadError}>
        <p>{CONSULTAS_TEXTS.loadErrorDescription}</p>
      </Alert>
    );
  }

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '8' })}>
      <h1 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{CONSULTAS_TEXTS.title}</h1>
      {!lists ? (
        <ListSkeleton />
      ) : (
        <>
          {lists.rejected.length > 0 && (
            <section aria-labelledby="consultas-rejeitadas" className={section}>
              <h2 id="consultas-rejeitadas" className={heading}>
                {CONSULTAS_TEXTS.notSent}
              </h2>
              {lists.rejected.map((a) => (
                <AppointmentCard key={a.id} appointment={a} canJoin={false} onDismiss={dismiss} />
              ))}
            </section>
          )}
          <section aria-labelledby="consultas-proximas" className={section}>
            <h2 id="consultas-proximas" className={heading}>
              {CONSULTAS_TEXTS.upcoming}
            </h2>
            {lists.upcoming.length === 0 ? (
              <div className={empty}>
                <p>{CONSULTAS_TEXTS.emptyUpcoming}</p>
                <Link
                  to="/paciente/dashboard/agendar"
                  className={buttonClass({ size: 'sm' }, css({ mt: '3' }))}
                >
                  {CONSULTAS_TEXTS.book}
                </Link>
              </div>
            ) : (
              lists.upcoming.map((a) => (
                <AppointmentCard key={a.id} appointment={a} canJoin onCancel={setCancelling} />
              ))
            )}
          </section>
          <section aria-labelledby="consultas-historico" className={section}>
            <h2 id="consultas-historico" className={heading}>
              {CONSULTAS_TEXTS.history}
            </h2>
            {lists.history.length === 0 ? (
              <p className={empty}>{CONSULTAS_TEXTS.emptyHistory}</p>
            ) : (
              lists.history.map((a) => (
                <AppointmentCard key={a.id} appointment={a} canJoin={false} />
              ))
            )}
          </section>
        </>
      )}
      {cancelling && (
        <CancelDialog
          appointment={cancelling}
          open
          onOpenChange={(open) => {
            if (!open) setCancelling(null);
          }}
        />
      )}
    </div>
  );
}
