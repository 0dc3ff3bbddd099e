import { useMemo } from 'react';
import { map } from 'rxjs';
import { Temporal } from 'temporal-polyfill';
import { css } from 'styled-system/css';
import type { AppointmentView, MedicoDoc } from '../../../sync/index.ts';
import { csvFileName, paidAppointmentsCsv } from '@/domain/finance/csv.ts';
import {
  monthLabel,
  summarizeFinance,
  type FinanceAppointment,
  type PaidAppointment,
} from '@/domain/finance/finance.ts';
import { formatCents } from '@/domain/money/money.ts';
import { formatBrDate } from '@/domain/time/local-date.ts';
import { formatWallTime } from '@/domain/time/wall-time.ts';
import { saoPauloToday } from '@/domain/time/zone.ts';
import { useObservable, useSyncEngine } from '@/session/sync-provider.tsx';
import { Alert } from '@/ui/alert.tsx';
import { Button } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';
import { Skeleton } from '@/ui/skeleton.tsx';

export const FINANCE_TEXTS = {
  title: 'Financeiro',
  subtitle:
    'Calculado a partir das consultas salvas neste dispositivo — funciona também sem internet.',
  received: 'Recebido este mês',
  pending: 'A receber este mês',
  receivedCount: (n: number) => (n === 1 ? '1 consulta paga' : `${n} consultas pagas`),
  pendingCount: (n: number) =>
    n === 1 ? '1 consulta aguardando pagamento' : `${n} consultas aguardando pagamento`,
  byMonth: 'Por mês',
  month: 'Mês',
  monthReceived: 'Recebido',
  monthPending: 'A receber',
  paidList: 'Consultas pagas',
  paidOn: 'Pago em',
  noPaid: 'Nenhuma consulta paga ainda.',
  noMonths: 'Nenhuma consulta com valor registrado.',
  exportCsv: 'Exportar CSV',
  loading: 'Carregando suas consultas…',
  rule: 'Recebido conta no mês da confirmação do pagamento; a receber conta no mês da consulta (horário de Brasília).',
} as const;

function toFinance(view: AppointmentView): FinanceAppointment {
  return {
    id: view.id,
    horario_inicio: view.horario_inicio,
    price_in_cents: view.price_in_cents,
    status: view.status,
    pagamento_status: view.pagamento_status,
    pagamento_confirmado_em: view.pagamento_confirmado_em,
    protocolo: view.guia?.protocolo ?? view.protocolo,
    patientName: view.paciente?.full_name ?? null,
  };
}

/** Hands the browser a file to save; the URL is released once the click has started it. */
function download(name: string, content: string) {
  const url = URL.createObjectURL(new Blob([content], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

const cell = css({ py: '2', px: '2', textAlign: 'right', whiteSpace: 'nowrap' });

function Figure({ label, value, detail }: { label: string; value: string; detail: string }) {
  return (
    <Card>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{label}</p>
      <p className={css({ mt: '1', fontSize: '2xl', fontWeight: 'bold' })}>{value}</p>
      <p className={css({ mt: '1', fontSize: 'sm', color: 'fg.muted' })}>{detail}</p>
    </Card>
  );
}

function PaidRow({ paid }: { paid: PaidAppointment }) {
  return (
    <li
      className={css({
        display: 'flex',
        flexWrap: 'wrap',
        justifyContent: 'space-between',
        gap: '2',
        py: '3',
        borderBottomWidth: '1px',
        borderColor: 'border',
      })}
    >
      <div className={css({ minW: '0' })}>
        <p className={css({ fontWeight: 'semibold' })}>{paid.patientName ?? '—'}</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          {formatBrDate(paid.consultation.toPlainDate())} às{' '}
          {formatWallTime(paid.consultation.toPlainTime())}
          {paid.protocolo ? ` · ${paid.protocolo}` : ''}
        </p>
      </div>
      <div className={css({ textAlign: 'right', ml: 'auto' })}>
        <p className={css({ fontWeight: 'semibold' })}>{formatCents(paid.amountCents)}</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          {FINANCE_TEXTS.paidOn} {formatBrDate(paid.paidAt.toPlainDate())}
        </p>
      </div>
    </li>
  );
}

/** The 'Financeiro' section (beyond the product rules (docs/product-rules.md)): money in and due, from the local replica. */
export function FinanceTab(_props: { doctor: MedicoDoc }) {
  const engine = useSyncEngine();
  const now = Temporal.Now.instant();
  const summary$ = useMemo(
    () =>
      engine?.appointments$.pipe(
        map((list) => summarizeFinance(list.map(toFinance), Temporal.Now.instant())),
      ) ?? null,
    [engine],
  );
  const pulled$ = useMemo(() => engine?.pulledOnce$('agendamentos') ?? null, [engine]);
  const summary = useObservable(summary$, undefined);
  const pulled = useObservable(pulled$, false);

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6', minW: '0' })}>
      <header
        className={css({
          display: 'flex',
          flexWrap: 'wrap',
          justifyContent: 'space-between',
          alignItems: 'flex-start',
          gap: '3',
        })}
      >
        <div>
          <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{FINANCE_TEXTS.title}</h1>
          <p className={css({ mt: '1', color: 'fg.muted' })}>{FINANCE_TEXTS.subtitle}</p>
        </div>
        <Button
          variant="outline"
          disabled={!summary || summary.paid.length === 0}
          onClick={() =>
            summary &&
            download(csvFileName(saoPauloToday(now).toString()), paidAppointmentsCsv(summary.paid))
          }
        >
          {FINANCE_TEXTS.exportCsv}
        </Button>
      </header>
      {!pulled && (
        <Alert tone="info" role="status">
          {FINANCE_TEXTS.loading}
        </Alert>
      )}
      {!summary ? (
        <Skeleton className={css({ h: '40' })} />
      ) : (
        <>
          <div
            className={css({
              display: 'grid',
              gap: '4',
              gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' },
            })}
          >
            <Figure
              label={FINANCE_TEXTS.received}
              value={formatCents(summary.thisMonth.receivedCents)}
              detail={FINANCE_TEXTS.receivedCount(summary.thisMonth.receivedCount)}
            />
            <Figure
              label={FINANCE_TEXTS.pending}
              value={formatCents(summary.thisMonth.pendingCents)}
              detail={FINANCE_TEXTS.pendingCount(summary.thisMonth.pendingCount)}
            />
          </div>
          <Card>
            <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold', mb: '2' })}>
              {FINANCE_TEXTS.byMonth}
            </h2>
            {summary.months.length === 0 ? (
              <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{FINANCE_TEXTS.noMonths}</p>
            ) : (
              <div className={css({ overflowX: 'auto' })}>
                <table className={css({ w: 'full', fontSize: 'sm', borderCollapse: 'collapse' })}>
                  <thead>
                    <tr className={css({ borderBottomWidth: '1px', borderColor: 'border' })}>
                      <th className={css({ py: '2', pr: '2', textAlign: 'left' })}>
                        {FINANCE_TEXTS.month}
                      </th>
                      <th className={cell}>{FINANCE_TEXTS.monthReceived}</th>
                      <th className={cell}>{FINANCE_TEXTS.monthPending}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {summary.months.map((month) => (
                      <tr
                        key={month.month}
                        className={css({ borderBottomWidth: '1px', borderColor: 'border' })}
                      >
                        <td className={css({ py: '2', pr: '2' })}>{monthLabel(month.month)}</td>
                        <td className={cell}>{formatCents(month.receivedCents)}</td>
                        <td className={cell}>{formatCents(month.pendingCents)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <p className={css({ mt: '3', fontSize: 'xs', color: 'fg.muted' })}>
              {FINANCE_TEXTS.rule}
            </p>
          </Card>
          <Card>
            <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
              {FINANCE_TEXTS.paidList}
            </h2>
            {summary.paid.length === 0 ? (
              <p className={css({ mt: '2', color: 'fg.muted', fontSize: 'sm' })}>
                {FINANCE_TEXTS.noPaid}
              </p>
            ) : (
              <ul aria-label={FINANCE_TEXTS.paidList}>
                {summary.paid.map((paid) => (
                  <PaidRow key={paid.id} paid={paid} />
                ))}
              </ul>
            )}
          </Card>
        </>
      )}
    </div>
  );
}
