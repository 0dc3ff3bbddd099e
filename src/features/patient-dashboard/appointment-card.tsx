import { Link } from 'react-router-dom';
import { css } from 'styled-system/css';
import { canPatientJoin } from '@/domain/appointments/actions.ts';
import { patientBadge, type BadgeTone as DomainTone } from '@/domain/appointments/badges.ts';
import { isAppointmentStatus } from '@/domain/appointments/status.ts';
import { formatLongDate, formatShortTime } from '@/domain/time/display.ts';
import { parseInstant } from '@/domain/time/zone.ts';
import type { AppointmentView } from '../../../sync/index.ts';
import { showToast } from '@/lib/toast.ts';
import { Badge, type BadgeTone } from '@/ui/badge.tsx';
import { Button } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';

export const APPOINTMENT_TEXTS = {
  join: 'Entrar na sala',
  noLinkTitle: 'Link não disponível',
  noLinkDescription: 'O médico ainda não disponibilizou o link para esta consulta.',
  protocol: 'Protocolo',
  viewGuide: 'Ver guia',
  generating: 'Gerando...',
  pending: 'Aguardando sincronização',
  pendingNote: 'Este agendamento será enviado assim que houver conexão.',
  rejected: 'Não concluído',
  dismiss: 'Dispensar',
  brasilia: '(horário de Brasília)',
} as const;

const TONES: Record<DomainTone, BadgeTone> = {
  success: 'success',
  warning: 'amber',
  info: 'primary',
  destructive: 'destructive',
};

function doctorName(a: AppointmentView): string {
  return a.medico?.public_name || a.medico?.name || 'Médico';
}

function When({ instant }: { instant: string }) {
  const at = parseInstant(instant);
  if (!at) return null;
  const date = formatLongDate(at);
  return (
    <p className={css({ fontSize: 'sm' })}>
      {date.charAt(0).toUpperCase() + date.slice(1)}, às {formatShortTime(at)}{' '}
      <span className={css({ color: 'fg.muted' })}>{APPOINTMENT_TEXTS.brasilia}</span>
    </p>
  );
}

function StatusBadge({ appointment }: { appointment: AppointmentView }) {
  if (appointment.sync.state === 'pending' && appointment.sync.kinds.includes('book')) {
    return <Badge tone="neutral">{APPOINTMENT_TEXTS.pending}</Badge>;
  }
  if (appointment.sync.state === 'rejected') {
    return <Badge tone="destructive">{APPOINTMENT_TEXTS.rejected}</Badge>;
  }
  const status = appointment.status;
  if (!status || !isAppointmentStatus(status)) return null;
  const badge = patientBadge({ status, pagamento_status: appointment.pagamento_status });
  return <Badge tone={TONES[badge.tone]}>{badge.label}</Badge>;
}

function joinRoom(appointment: AppointmentView) {
  const link = appointment.meeting_link?.trim();
  const status = appointment.status;
  const joinable =
    link && status && isAppointmentStatus(status)
      ? canPatientJoin({
          status,
          pagamento_status: appointment.pagamento_status,
          meeting_link: link,
        })
      : false;
  if (!joinable || !link) {
    showToast({
      tone: 'info',
      title: APPOINTMENT_TEXTS.noLinkTitle,
      description: APPOINTMENT_TEXTS.noLinkDescription,
    });
    return;
  }
  window.open(link, '_blank', 'noopener,noreferrer');
}

type AppointmentCardProps = {
  appointment: AppointmentView;
  /** Offered on upcoming appointments only: past ones have no room to enter. */
  canJoin: boolean;
  onDismiss?: ((mutationId: string) => void) | undefined;
};

export function AppointmentCard({ appointment: a, canJoin, onDismiss }: AppointmentCardProps) {
  const protocol = a.guia?.protocolo ?? a.protocolo;
  const isPending = a.sync.state === 'pending' && a.sync.kinds.includes('book');
  return (
    <Card
      data-testid="appointment"
      data-appointment-id={a.id}
      data-sync={a.sync.state}
      className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}
    >
      <div
        className={css({
          display: 'flex',
          justifyContent: 'space-between',
          gap: '3',
          flexWrap: 'wrap',
        })}
      >
        <div>
          <p className={css({ fontWeight: 'bold' })}>{doctorName(a)}</p>
          {a.medico?.specialty && (
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{a.medico.specialty}</p>
          )}
        </div>
        <StatusBadge appointment={a} />
      </div>
      <When instant={a.horario_inicio} />
      {a.sync.state === 'rejected' ? (
        <div
          role="alert"
          className={css({ display: 'flex', alignItems: 'center', gap: '3', flexWrap: 'wrap' })}
        >
          <p className={css({ color: 'destructive.fg', fontSize: 'sm', flex: '1' })}>
            {a.sync.rejection.message}
          </p>
          {onDismiss && (
            <Button
              size="sm"
              variant="outline"
              onClick={() => a.sync.state === 'rejected' && onDismiss(a.sync.mutationId)}
            >
              {APPOINTMENT_TEXTS.dismiss}
            </Button>
          )}
        </div>
      ) : (
        <>
          {isPending && (
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
              {APPOINTMENT_TEXTS.pendingNote}
            </p>
          )}
          <div
            className={css({ display: 'flex', alignItems: 'center', gap: '3', flexWrap: 'wrap' })}
          >
            <p className={css({ fontSize: 'sm' })}>
              {APPOINTMENT_TEXTS.protocol}:{' '}
              <strong>{protocol ?? APPOINTMENT_TEXTS.generating}</strong>
            </p>
            {a.guia && (
              <Link
                to={`/guia/${a.guia.id}`}
                className={css({
                  fontSize: 'sm',
                  color: 'primary.text',
                  textDecoration: 'underline',
                })}
              >
                {APPOINTMENT_TEXTS.viewGuide}
              </Link>
            )}
            {canJoin && !isPending && (
              <Button size="sm" className={css({ ml: 'auto' })} onClick={() => joinRoom(a)}>
                {APPOINTMENT_TEXTS.join}
              </Button>
            )}
          </div>
        </>
      )}
    </Card>
  );
}
