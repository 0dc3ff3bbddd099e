import { useId } from 'react';
import { useNavigate } from 'react-router-dom';
import { css } from 'styled-system/css';
import { patientBadge } from '@/domain/appointments/badges.ts';
import { roomEntry, type RoomEntry } from '@/domain/appointments/room.ts';
import { appointmentStateOf, isClosedStatus } from '@/domain/appointments/status.ts';
import { CHECKOUT_HOLD_MINUTES } from '@/domain/rules/policy-defaults.ts';
import { isCheckoutHold } from '@/domain/rules/policy.ts';
import { formatShortTime } from '@/domain/time/display.ts';
import { parseInstant } from '@/domain/time/zone.ts';
import type { AppointmentView } from '../../../sync/index.ts';
import { resumeCheckoutState } from '@/domain/booking/checkout-state.ts';
import { GuideDocumentActions } from '@/session/guide-documents.tsx';
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
  resume: 'Continuar agendamento',
  cancelHold: 'Cancelar',
  cancel: 'Cancelar consulta',
  holdUntil: (time: string) =>
    `Horário reservado até ${time}. Conclua o agendamento gerando a guia; depois disso o horário é liberado.`,
  holdGeneric: `Horário reservado por ${CHECKOUT_HOLD_MINUTES} minutos. Conclua o agendamento gerando a guia; depois disso o horário é liberado.`,
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

/** The built-in room, or the doctor's own link when the doctor chose one in perfil. */
function entryOf(a: AppointmentView): RoomEntry | null {
  return roomEntry({
    id: a.id,
    status: a.status,
    meeting_link: a.meeting_link,
    sala_consulta: a.medico?.sala_consulta,
  });
}

function joinRoom(appointment: AppointmentView, navigate: (path: string) => void) {
  const entry = entryOf(appointment);
  if (!entry) {
    showToast({
      tone: 'info',
      title: APPOINTMENT_TEXTS.noLinkTitle,
      description: APPOINTMENT_TEXTS.noLinkDescription,
    });
    return;
  }
  if (entry.kind === 'room') navigate(entry.path);
  else window.open(entry.url, '_blank', 'noopener,noreferrer');
}

type AppointmentCardProps = {
  appointment: AppointmentView;
  /** Offered on upcoming appointments only: past ones have no room to enter. */
  canJoin: boolean;
  onDismiss?: ((mutationId: string) => void) | undefined;
  /** Opens the cancel dialog; upcoming appointments only. */
  onCancel?: ((appointment: AppointmentView) => void) | undefined;
};

/** A booking left at checkout (no guide, unpaid), as the server counts it for the hold. */
function isHold(a: AppointmentView): boolean {
  const state = appointmentStateOf(a);
  return (
    a.sync.state === 'synced' &&
    state !== null &&
    isCheckoutHold({ ...state, guia_id: a.guia_id ?? a.guia?.id ?? null })
  );
}

function holdDeadline(a: AppointmentView): string | null {
  const created = a.created_at ? parseInstant(a.created_at) : null;
  return created ? formatShortTime(created.add({ minutes: CHECKOUT_HOLD_MINUTES })) : null;
}

function HoldActions({
  appointment: a,
  onCancel,
}: {
  appointment: AppointmentView;
  onCancel?: ((appointment: AppointmentView) => void) | undefined;
}) {
  const navigate = useNavigate();
  const state = resumeCheckoutState(a);
  const deadline = holdDeadline(a);
  return (
    <>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        {deadline ? APPOINTMENT_TEXTS.holdUntil(deadline) : APPOINTMENT_TEXTS.holdGeneric}
      </p>
      <div className={actionsRow}>
        {state && (
          <Button
            size="sm"
            className={css({ sm: { order: 2 } })}
            onClick={() => void navigate('/checkout', { state })}
          >
            {APPOINTMENT_TEXTS.resume}
          </Button>
        )}
        {onCancel && (
          <Button size="sm" variant="outline" onClick={() => onCancel(a)}>
            {APPOINTMENT_TEXTS.cancelHold}
          </Button>
        )}
      </div>
    </>
  );
}

/**
 * 'Cancelar consulta' and 'Entrar na sala' on one row. Without a link the room button looks
 * and reads as unavailable (aria-disabled) but stays focusable: pressing it says why in the
 * toast 'Link não disponível' (docs/product-rules.md §8), and the reason also sits under the
 * row, tied to it by aria-describedby.
 */
function UpcomingActions({
  appointment: a,
  onCancel,
}: {
  appointment: AppointmentView;
  onCancel?: ((appointment: AppointmentView) => void) | undefined;
}) {
  const reasonId = useId();
  const navigate = useNavigate();
  const hasLink = entryOf(a) !== null;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
      <div
        className={css({
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: '2',
        })}
      >
        {onCancel && (
          <Button size="sm" variant="ghost" onClick={() => onCancel(a)}>
            {APPOINTMENT_TEXTS.cancel}
          </Button>
        )}
        <Button
          size="sm"
          className={css({ ml: 'auto' })}
          aria-disabled={!hasLink || undefined}
          aria-describedby={hasLink ? undefined : reasonId}
          onClick={() => joinRoom(a, (path) => void navigate(path))}
        >
          {APPOINTMENT_TEXTS.join}
        </Button>
      </div>
      {!hasLink && (
        <p id={reasonId} className={css({ fontSize: 'xs', color: 'fg.muted', textAlign: 'end' })}>
          {APPOINTMENT_TEXTS.noLinkDescription}
        </p>
      )}
    </div>
  );
}

// Full-width and stacked on phones, side by side at the card's end from sm up.
const actionsRow = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: 'none' },
  gridAutoFlow: { base: 'row', sm: 'column' },
  justifyContent: { sm: 'end' },
  gap: '2',
});

export function AppointmentCard({
  appointment: a,
  canJoin,
  onDismiss,
  onCancel,
}: AppointmentCardProps) {
  const protocol = a.guia?.protocolo ?? a.protocolo;
  const isPending = a.sync.state === 'pending' && a.sync.kinds.includes('book');
  const rejected = a.sync.state === 'rejected' ? a.sync : null;
  const hold = canJoin && isHold(a);
  const closed = Boolean(a.status && isClosedStatus(a.status));
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
      ) : hold ? (
        <HoldActions appointment={a} onCancel={onCancel} />
      ) : (
        <>
          {isPending && (
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
              {APPOINTMENT_TEXTS.pendingNote}
            </p>
          )}
          {/* A cancelled or expired hold never got a guide: nothing is being generated. */}
          {(protocol || !closed) && (
            <ProtocolLine protocol={protocol ?? null} guideId={a.guia?.id ?? null} />
          )}
          {a.guia && !isPending && (
            <GuideDocumentActions appointment={a} withName={doctorName(a)} />
          )}
          {canJoin && !isPending && <UpcomingActions appointment={a} onCancel={onCancel} />}
        </>
      )}
    </Card>
  );
}
