import { css } from 'styled-system/css';
import { canPatientJoin } from '@/domain/appointments/actions.ts';
import { patientBadge } from '@/domain/appointments/badges.ts';
import { appointmentStateOf } from '@/domain/appointments/status.ts';
import type { AppointmentView } from '../../../sync/index.ts';
import { showToast } from '@/lib/toast.ts';
import {
  APPOINTMENT_PART_TEXTS,
  AppointmentWhen,
  PendingMarker,
  ProtocolLine,
  RejectedBadge,
  RejectedNote,
  StatusBadge,
} from '@/ui/appointment-parts.tsx';
import { Button } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';

export const APPOINTMENT_TEXTS = {
  ...APPOINTMENT_PART_TEXTS,
  join: 'Entrar na sala',
  noLinkTitle: 'Link não disponível',
  noLinkDescription: 'O médico ainda não disponibilizou o link para esta consulta.',
  pendingNote: 'Este agendamento será enviado assim que houver conexão.',
} as const;

function doctorName(a: AppointmentView): string {
  return a.medico?.public_name || a.medico?.name || 'Médico';
}

function PatientStatus({ appointment }: { appointment: AppointmentView }) {
  if (appointment.sync.state === 'pending' && appointment.sync.kinds.includes('book')) {
    return <PendingMarker />;
  }
  if (appointment.sync.state === 'rejected') return <RejectedBadge />;
  const state = appointmentStateOf(appointment);
  return state ? <StatusBadge badge={patientBadge(state)} /> : null;
}

function joinRoom(appointment: AppointmentView) {
  const link = appointment.meeting_link?.trim();
  const state = appointmentStateOf(appointment);
  const joinable = link && state ? canPatientJoin({ ...state, meeting_link: link }) : false;
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
  const rejected = a.sync.state === 'rejected' ? a.sync : null;
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
        <PatientStatus appointment={a} />
      </div>
      <AppointmentWhen instant={a.horario_inicio} />
      {rejected ? (
        <RejectedNote
          message={rejected.rejection.message}
          onDismiss={onDismiss && (() => onDismiss(rejected.mutationId))}
        />
      ) : (
        <>
          {isPending && (
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
              {APPOINTMENT_TEXTS.pendingNote}
            </p>
          )}
          <ProtocolLine protocol={protocol ?? null} guideId={a.guia?.id ?? null}>
            {canJoin && !isPending && (
              <Button size="sm" className={css({ ml: 'auto' })} onClick={() => joinRoom(a)}>
                {APPOINTMENT_TEXTS.join}
              </Button>
            )}
          </ProtocolLine>
        </>
      )}
    </Card>
  );
}
