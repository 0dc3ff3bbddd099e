import { useEffect, useMemo } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { css } from 'styled-system/css';
import { doctorDisplayName } from '@/domain/doctors/fixed-doctors.ts';
import { formatLongDate, formatShortTime } from '@/domain/time/display.ts';
import { parseInstant } from '@/domain/time/zone.ts';
import { useSyncSession } from '@/session/sync-provider.tsx';
import { GuideDocumentActions } from '@/session/guide-documents.tsx';
import { showToast } from '@/lib/toast.ts';
import { useHoldUpdates } from '@/lib/update-guard.ts';
import { Alert } from '@/ui/alert.tsx';
import { buttonClass } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';
import { Container } from '@/ui/container.tsx';
import { PageSpinner } from '@/ui/spinner.tsx';
import {
  MY_APPOINTMENTS_PATH,
  useBookingProgress,
  useBookingRejection,
  useGuideRejection,
} from './booking-outcome.ts';
import { readSuccessState } from '@/domain/booking/checkout-state.ts';

export const SUCCESS_TEXTS = {
  noStateTitle: 'Erro de Navegação',
  noStateDescription: 'Nenhum agendamento encontrado para confirmação.',
  notFoundTitle: 'Erro ao Buscar Agendamento',
  notFoundDescription: 'Não foi possível encontrar os detalhes da sua confirmação.',
  kicker: 'Horário agendado com sucesso!',
  title: 'Agendamento Concluído!',
  description: 'Sua consulta foi confirmada com sucesso. A guia já foi enviada ao médico.',
  pendingTitle: 'Agendamento aguardando envio',
  offlineDescription:
    'Você está offline. Seu agendamento e a guia ficaram salvos neste aparelho e serão enviados assim que a conexão voltar.',
  sendingDescription: 'Estamos enviando seu agendamento e a guia. Isso leva só alguns segundos.',
  protocol: 'Protocolo',
  generating: 'Gerando...',
  doctor: 'Médico(a)',
  date: 'Data',
  time: 'Horário',
  brasilia: '(horário de Brasília)',
  contactNote:
    'O médico entrará em contato para realizar a consulta e enviará o link da videochamada.',
  download: 'Baixar Guia',
  viewGuide: 'Ver Guia',
  myAppointments: 'Ir para Minhas Consultas',
} as const;

const dl = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: '8rem 1fr' },
  columnGap: '4',
  rowGap: { base: '0.5', sm: '2' },
  textAlign: 'left',
  '& dt': { color: 'fg.muted', fontSize: 'sm', mt: { base: '2', sm: '0' } },
  '& dd': { fontWeight: 'medium' },
});

function CheckIcon({ pending }: { pending: boolean }) {
  return (
    <div
      aria-hidden="true"
      className={css({
        mx: 'auto',
        w: '16',
        h: '16',
        borderRadius: 'full',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bg: pending ? 'amber.bg' : 'success.bg',
        color: pending ? 'amber.fg' : 'success.fg',
      })}
    >
      <svg width="34" height="34" viewBox="0 0 24 24" fill="none">
        {pending ? (
          <path
            d="M12 7v5l3 2M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0z"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        ) : (
          <path
            d="M5 12.5l4.5 4.5L19 7.5"
            stroke="currentColor"
            strokeWidth="2.6"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        )}
      </svg>
    </div>
  );
}

function Success({ appointmentId }: { appointmentId: string }) {
  const navigate = useNavigate();
  const { engine } = useSyncSession();
  const { appointment, status } = useBookingProgress(engine, appointmentId);
  useBookingRejection(appointment);
  // The page may hold the optimistic id while the queue already speaks of the server's.
  useGuideRejection(engine, appointment ? [appointmentId, appointment.id] : [appointmentId]);
  const guide = appointment?.guia ?? null;
  useHoldUpdates(guide === null);

  const missing = appointment === null && status !== null && status.initialSync.done;
  useEffect(() => {
    if (!missing) return;
    showToast({
      tone: 'error',
      title: SUCCESS_TEXTS.notFoundTitle,
      description: SUCCESS_TEXTS.notFoundDescription,
    });
    void navigate(MY_APPOINTMENTS_PATH, { replace: true });
  }, [missing, navigate]);

  if (!appointment) return <PageSpinner />;

  const pending = appointment.sync.state !== 'synced' || !guide;
  const offline = status !== null && !status.online;
  const start = parseInstant(appointment.horario_inicio);
  const protocol = guide?.protocolo ?? appointment.protocolo;
  const doctorName = appointment.medico
    ? doctorDisplayName({
        name: appointment.medico.name ?? '',
        public_name: appointment.medico.public_name,
      })
    : '—';

  return (
    <Container className={css({ py: { base: '8', md: '12' }, maxW: '2xl' })}>
      <Card
        className={css({ textAlign: 'center', display: 'flex', flexDirection: 'column', gap: '4' })}
      >
        <CheckIcon pending={pending} />
        {pending ? (
          <div role="status">
            <h1 className={css({ fontSize: '2xl', fontWeight: 'extrabold' })}>
              {SUCCESS_TEXTS.pendingTitle}
            </h1>
            <p className={css({ mt: '2', color: 'fg.muted' })}>
              {offline ? SUCCESS_TEXTS.offlineDescription : SUCCESS_TEXTS.sendingDescription}
            </p>
          </div>
        ) : (
          <div role="status">
            <p className={css({ color: 'success.fg', fontWeight: 'semibold' })}>
              {SUCCESS_TEXTS.kicker}
            </p>
            <h1 className={css({ fontSize: '2xl', fontWeight: 'extrabold', mt: '1' })}>
              {SUCCESS_TEXTS.title}
            </h1>
            <p className={css({ mt: '2', color: 'fg.muted' })}>{SUCCESS_TEXTS.description}</p>
          </div>
        )}
        <div
          className={css({
            bg: 'bg.subtle',
            borderRadius: 'lg',
            py: '3',
            px: '4',
          })}
        >
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{SUCCESS_TEXTS.protocol}</p>
          <p
            data-testid="success-protocol"
            className={css({ fontSize: 'xl', fontWeight: 'bold', fontFamily: 'mono' })}
          >
            {protocol ?? SUCCESS_TEXTS.generating}
          </p>
        </div>
        <dl className={dl}>
          <dt>{SUCCESS_TEXTS.doctor}</dt>
          <dd>
            {doctorName}
            {appointment.medico?.specialty && (
              <span className={css({ display: 'block', color: 'fg.muted', fontWeight: 'normal' })}>
                {appointment.medico.specialty}
              </span>
            )}
          </dd>
          <dt>{SUCCESS_TEXTS.date}</dt>
          <dd>{start ? formatLongDate(start) : appointment.appointment_date}</dd>
          <dt>{SUCCESS_TEXTS.time}</dt>
          <dd>
            {start ? formatShortTime(start) : appointment.appointment_time} {SUCCESS_TEXTS.brasilia}
          </dd>
        </dl>
        <Alert tone="info">{SUCCESS_TEXTS.contactNote}</Alert>
        {guide && appointment.sync.state === 'synced' && (
          <div className={css({ display: 'flex', justifyContent: 'center' })}>
            <GuideDocumentActions
              appointment={appointment}
              withName={doctorName}
              size="md"
              pdfLabel={SUCCESS_TEXTS.download}
            />
          </div>
        )}
        <div
          className={css({
            display: 'flex',
            flexDirection: { base: 'column', sm: 'row' },
            gap: '3',
            justifyContent: 'center',
          })}
        >
          {guide && (
            <Link to={`/guia/${guide.id}`} className={buttonClass({ variant: 'outline' })}>
              {SUCCESS_TEXTS.viewGuide}
            </Link>
          )}
          <Link to={MY_APPOINTMENTS_PATH} className={buttonClass({ variant: 'solid' })}>
            {SUCCESS_TEXTS.myAppointments}
          </Link>
        </div>
      </Card>
    </Container>
  );
}

/** /agendamento-sucesso: the booking's outcome, live until its guide arrives. */
export function SuccessPage() {
  const location = useLocation();
  const state = useMemo(() => readSuccessState(location.state), [location.state]);
  useEffect(() => {
    if (state) return;
    showToast({
      tone: 'error',
      title: SUCCESS_TEXTS.noStateTitle,
      description: SUCCESS_TEXTS.noStateDescription,
    });
  }, [state]);
  if (!state) return <Navigate to={MY_APPOINTMENTS_PATH} replace />;
  return <Success appointmentId={state.appointmentId} />;
}
