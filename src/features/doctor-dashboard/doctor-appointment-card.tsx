import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { css } from 'styled-system/css';
import { doctorActions } from '@/domain/appointments/actions.ts';
import { doctorBadge } from '@/domain/appointments/badges.ts';
import { checkMeetingLink } from '@/domain/appointments/meeting-link.ts';
import { managesMeetingLink, roomEntry } from '@/domain/appointments/room.ts';
import { appointmentStateOf } from '@/domain/appointments/status.ts';
import { maskCpf } from '@/domain/identity/cpf.ts';
import { formatCalendarDate } from '@/domain/time/display.ts';
import type {
  AppointmentView,
  MutationKind,
  SyncEngine,
  WriteResult,
} from '../../../sync/index.ts';
import { GuideDocumentActions } from '@/session/guide-documents.tsx';
import { loadActionRegistry } from '@/session/action-registry.ts';
import { showToast } from '@/lib/toast.ts';
import {
  AppointmentWhen,
  PendingMarker,
  ProtocolLine,
  RejectedNote,
  StatusBadge,
} from '@/ui/appointment-parts.tsx';
import { Button } from '@/ui/button.tsx';
import { buttonClass } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';
import { Dialog } from '@/ui/dialog.tsx';
import { TextField } from '@/ui/field.tsx';
import type { ActionRejection } from './action-feedback.tsx';
import { RoomRecord } from './room-record.tsx';

export const DOCTOR_CARD_TEXTS = {
  patientFallback: 'Paciente',
  email: 'E-mail',
  cpf: 'CPF',
  birthDate: 'Nascimento',
  phone: 'Telefone',
  notInformed: 'Não informado',
  join: 'Entrar na sala',
  meetingLink: 'Link da consulta',
  noMeetingLink: 'Nenhum link salvo',
  confirmPayment: 'Confirmar Pagamento',
  checkIn: 'Fazer Check-in',
  addLink: 'Adicionar link',
  editLink: 'Editar link',
  saveLink: 'Salvar link',
  closeLink: 'Fechar',
  cancel: 'Cancelar consulta',
  cancelTitle: 'Cancelar esta consulta?',
  cancelDescription:
    'O paciente verá a consulta como cancelada e o horário ficará livre para um novo agendamento. Esta ação não pode ser desfeita.',
  cancelConfirm: 'Sim, cancelar',
  cancelBack: 'Voltar',
  notQueued: 'Não foi possível registrar a ação neste aparelho.',
  linkPlaceholder: 'https://meet.google.com/abc-defg-hij',
} as const;

const T = DOCTOR_CARD_TEXTS;

const dataList = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))' },
  columnGap: '4',
  rowGap: '1',
  fontSize: 'sm',
  '& dt': { color: 'fg.muted', fontSize: 'xs' },
  '& dd': { overflowWrap: 'anywhere' },
});

function PatientData({ paciente }: { paciente: AppointmentView['paciente'] }) {
  const rows: [string, string | null | undefined][] = [
    [T.email, paciente?.email],
    [T.cpf, paciente?.cpf ? maskCpf(paciente.cpf) : null],
    [T.birthDate, formatCalendarDate(paciente?.data_nasc)],
    [T.phone, paciente?.whatsapp],
  ];
  return (
    <dl className={dataList}>
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value || T.notInformed}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Tells the doctor at once when the device itself refused to queue the action. */
async function reportLocal(kind: MutationKind, result: WriteResult<unknown>): Promise<void> {
  if (result.ok) return;
  const { MUTATIONS } = await loadActionRegistry();
  const title = MUTATIONS[kind].texts?.failure ?? '';
  showToast({ tone: 'error', title, description: T.notQueued });
}

function MeetingLinkForm({
  initial,
  onSave,
}: {
  initial: string;
  onSave: (link: string) => Promise<void>;
}) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkMeetingLink(value);
    if (!checked.ok) {
      setError(checked.message);
      return;
    }
    setError(undefined);
    setSaving(true);
    try {
      await onSave(checked.link);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      noValidate
      aria-label={T.meetingLink}
      onSubmit={(e) => void submit(e)}
      className={css({
        display: 'flex',
        gap: '2',
        alignItems: 'flex-start',
        flexDirection: { base: 'column', sm: 'row' },
      })}
    >
      <TextField
        label={T.meetingLink}
        type="url"
        inputMode="url"
        placeholder={T.linkPlaceholder}
        value={value}
        error={error}
        onChange={(e) => setValue(e.target.value)}
        className={css({ flex: '1', w: 'full' })}
      />
      <Button type="submit" loading={saving} className={css({ mt: { sm: '6' } })}>
        {T.saveLink}
      </Button>
    </form>
  );
}

type CardProps = {
  appointment: AppointmentView;
  /** The doctor's room choice in perfil (medicos.sala_consulta). */
  roomChoice: string | null;
  /** Null while the page shows its first read: the actions wait for the replica (disabled). */
  engine: SyncEngine | null;
  rejection: ActionRejection | undefined;
  onDismissRejection: (appointmentId: string) => void;
};

/** One appointment in the doctor's consultas: patient data, status, and the doctor's actions. */
export function DoctorAppointmentCard({
  appointment: a,
  roomChoice,
  engine,
  rejection,
  onDismissRejection,
}: CardProps) {
  const [linkOpen, setLinkOpen] = useState(false);
  const [cancelOpen, setCancelOpen] = useState(false);
  const headingId = useId();
  const state = appointmentStateOf(a);
  const actions = state ? doctorActions(state) : null;
  const name = a.paciente?.full_name || T.patientFallback;
  const room = a.status === 'atendido' ? null : roomEntry({ ...a, sala_consulta: roomChoice });
  // The built-in room needs no link: the link line and its controls are for a doctor who chose
  // their own link, or an appointment that has one saved.
  const withLink = managesMeetingLink({ ...a, sala_consulta: roomChoice });

  const readOnly = engine === null;

  async function run(
    kind: MutationKind,
    act: (engine: SyncEngine) => Promise<WriteResult<unknown>>,
  ): Promise<void> {
    if (!engine) return;
    // A new attempt replaces the previous refusal on screen.
    onDismissRejection(a.id);
    await reportLocal(kind, await act(engine));
  }

  return (
    <Card
      data-testid="doctor-appointment"
      data-appointment-id={a.id}
      data-sync={a.sync.state}
      aria-labelledby={headingId}
      role="article"
      className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
    >
      <div
        className={css({
          display: 'flex',
          justifyContent: 'space-between',
          gap: '2',
          flexWrap: 'wrap',
        })}
      >
        <h2 id={headingId} className={css({ fontWeight: 'bold', fontSize: 'md' })}>
          {name}
        </h2>
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          {state && <StatusBadge badge={doctorBadge(state)} />}
          {a.sync.state === 'pending' && <PendingMarker />}
        </div>
      </div>
      <AppointmentWhen instant={a.horario_inicio} />
      <RoomRecord appointment={a} />
      <PatientData paciente={a.paciente} />
      <ProtocolLine protocol={a.guia?.protocolo ?? a.protocolo} guideId={a.guia?.id ?? null} />
      {a.guia && <GuideDocumentActions appointment={a} withName={name} />}
      {withLink && (
        <p className={css({ fontSize: 'sm', overflowWrap: 'anywhere' })}>
          {T.meetingLink}:{' '}
          {a.meeting_link ? (
            <a
              href={a.meeting_link}
              target="_blank"
              rel="noopener noreferrer"
              className={css({ color: 'primary.text', textDecoration: 'underline' })}
            >
              {a.meeting_link}
            </a>
          ) : (
            <span className={css({ color: 'fg.muted' })}>{T.noMeetingLink}</span>
          )}
        </p>
      )}
      {rejection && (
        <RejectedNote message={rejection.message} onDismiss={() => onDismissRejection(a.id)} />
      )}
      {actions && (
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          {room?.kind === 'room' && (
            <Link to={room.path} className={buttonClass({ size: 'sm' })}>
              {T.join}
            </Link>
          )}
          {actions.canMarkPaid && (
            <Button
              size="sm"
              disabled={readOnly}
              onClick={() => void run('confirm_payment', (e) => e.confirmPayment(a.id))}
            >
              {T.confirmPayment}
            </Button>
          )}
          {actions.canCheckIn && (
            <Button
              size="sm"
              disabled={readOnly}
              onClick={() => void run('check_in', (e) => e.checkIn(a.id))}
            >
              {T.checkIn}
            </Button>
          )}
          {actions.canSaveLink && withLink && (
            <Button
              size="sm"
              variant="outline"
              disabled={readOnly}
              aria-expanded={linkOpen}
              onClick={() => setLinkOpen((open) => !open)}
            >
              {linkOpen ? T.closeLink : a.meeting_link ? T.editLink : T.addLink}
            </Button>
          )}
          {actions.canCancel && (
            <Button
              size="sm"
              variant="outline"
              disabled={readOnly}
              onClick={() => setCancelOpen(true)}
            >
              {T.cancel}
            </Button>
          )}
        </div>
      )}
      {linkOpen && actions?.canSaveLink && withLink && (
        <MeetingLinkForm
          initial={a.meeting_link ?? ''}
          onSave={async (link) => {
            await run('save_meeting_link', (e) => e.saveMeetingLink(a.id, link));
            setLinkOpen(false);
          }}
        />
      )}
      {/* Mounted only while asked: a closed dialog per card still costs each page change. */}
      {cancelOpen && (
        <Dialog
          open={cancelOpen}
          onOpenChange={setCancelOpen}
          title={T.cancelTitle}
          description={T.cancelDescription}
        >
          <div
            className={css({
              mt: '6',
              display: 'flex',
              gap: '3',
              justifyContent: 'flex-end',
              flexWrap: 'wrap',
            })}
          >
            <Button variant="outline" onClick={() => setCancelOpen(false)}>
              {T.cancelBack}
            </Button>
            <Button
              variant="destructive"
              onClick={() => {
                setCancelOpen(false);
                void run('cancel', (e) => e.cancel(a.id));
              }}
            >
              {T.cancelConfirm}
            </Button>
          </div>
        </Dialog>
      )}
    </Card>
  );
}
