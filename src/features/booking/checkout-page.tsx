import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { mapWriteError, shownMessage } from '@/domain/errors/map-server-error.ts';
import { ERROR_MESSAGES } from '@/domain/errors/messages.ts';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { of } from 'rxjs';
import { css } from 'styled-system/css';
import type { PerfilDoc } from '../../../sync/index.ts';
import { missingProfileFields, orNotInformed } from '@/domain/account/profile-completeness.ts';
import { maskCpf } from '@/domain/identity/cpf.ts';
import { formatCents } from '@/domain/money/money.ts';
import { isClosedStatus } from '@/domain/appointments/status.ts';
import { CANCELLATION_POLICY_TEXT, HOLD_NOTE } from '@/domain/rules/policy.ts';
import type { CheckoutState } from '@/domain/schemas/booking.ts';
import { formatCalendarDate, formatLongDate, formatShortTime } from '@/domain/time/display.ts';
import { parseInstant } from '@/domain/time/zone.ts';
import { useObservable, useSyncSession } from '@/session/sync-provider.tsx';
import { showToast } from '@/lib/toast.ts';
import { useHoldUpdates } from '@/lib/update-guard.ts';
import { Alert } from '@/ui/alert.tsx';
import { Button } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';
import { Container } from '@/ui/container.tsx';
import { Skeleton } from '@/ui/skeleton.tsx';
import { BOOKING_TEXTS } from './booking-flow.tsx';
import { useBookingProgress, useBookingRejection } from './booking-outcome.ts';
import { readCheckoutState, toCompleteProfileState } from '@/domain/booking/checkout-state.ts';

export const CHECKOUT_TEXTS = {
  noState: 'Nenhum horário selecionado.',
  title: 'Confirme seu agendamento',
  patientSection: 'Seus dados',
  consultationSection: 'Consulta',
  fullName: 'Nome completo',
  cpf: 'CPF',
  birthDate: 'Data de nascimento',
  phone: 'Telefone',
  email: 'E-mail',
  doctor: 'Médico(a)',
  specialty: 'Especialidade',
  date: 'Data',
  time: 'Horário',
  brasilia: '(horário de Brasília)',
  total: 'Total',
  paymentNote: 'O pagamento será confirmado pelo profissional.',
  incompleteTitle: 'Dados Incompletos',
  incompleteDescription:
    'Para confirmar o agendamento, complete seu cadastro com nome completo, CPF, data de nascimento e WhatsApp.',
  completeProfile: 'Completar Cadastro',
  back: 'Voltar e Escolher Outro Horário',
  confirm: 'Confirmar e Gerar Guia',
  guideToast: 'Guia gerada!',
  guideQueued: 'Ela será enviada ao médico assim que a conexão voltar.',
  offline: 'Você está offline. Seu agendamento será enviado assim que a conexão voltar.',
  sending: 'Enviando seu agendamento...',
  rejected: 'Não foi possível concluir este agendamento.',
  released: 'Este horário não está mais reservado para você. Escolha outro horário.',
  policyTitle: 'Política de cancelamento',
} as const;

const dl = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: '11rem 1fr' },
  columnGap: '4',
  rowGap: { base: '0.5', sm: '2' },
  '& dt': { color: 'fg.muted', fontSize: 'sm', mt: { base: '2', sm: '0' } },
  '& dd': { fontWeight: 'medium', overflowWrap: 'anywhere' },
});

const sectionTitle = css({ fontSize: 'lg', fontWeight: 'bold', mb: '3' });

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

function PatientData({ profile }: { profile: PerfilDoc | null }) {
  return (
    <dl className={dl}>
      <Row label={CHECKOUT_TEXTS.fullName}>{orNotInformed(profile?.full_name)}</Row>
      <Row label={CHECKOUT_TEXTS.cpf}>
        {orNotInformed(profile?.cpf ? maskCpf(profile.cpf) : null)}
      </Row>
      <Row label={CHECKOUT_TEXTS.birthDate}>
        {orNotInformed(formatCalendarDate(profile?.data_nasc))}
      </Row>
      <Row label={CHECKOUT_TEXTS.phone}>{orNotInformed(profile?.whatsapp)}</Row>
      <Row label={CHECKOUT_TEXTS.email}>{orNotInformed(profile?.email)}</Row>
    </dl>
  );
}

function ConsultationData({ details }: { details: CheckoutState['appointmentDetails'] }) {
  const start = parseInstant(details.horario_inicio);
  return (
    <dl className={dl}>
      <Row label={CHECKOUT_TEXTS.doctor}>{details.doctor_name}</Row>
      <Row label={CHECKOUT_TEXTS.specialty}>{orNotInformed(details.specialty)}</Row>
      <Row label={CHECKOUT_TEXTS.date}>
        {start ? formatLongDate(start) : details.appointment_date}
      </Row>
      <Row label={CHECKOUT_TEXTS.time}>
        {start ? formatShortTime(start) : details.appointment_time} {CHECKOUT_TEXTS.brasilia}
      </Row>
    </dl>
  );
}

function Checkout({ state }: { state: CheckoutState }) {
  const navigate = useNavigate();
  const { engine } = useSyncSession();
  const details = state.appointmentDetails;
  const profile$ = useMemo(() => engine?.profile$ ?? of(undefined), [engine]);
  const profile = useObservable(profile$, undefined);
  const { appointment, status } = useBookingProgress(engine, details.appointmentId);
  const rejected = useBookingRejection(appointment);
  const [confirming, setConfirming] = useState(false);
  useHoldUpdates(true);

  const profileLoading =
    profile === undefined || (profile === null && status !== null && !status.initialSync.done);
  const missing = missingProfileFields(profile ?? null);
  const complete = !profileLoading && missing.length === 0;
  const pending = appointment?.sync.state === 'pending';
  const offline = status !== null && !status.online;
  // The hold ran out (or was cancelled from the dashboard): nothing left to confirm here.
  const released = Boolean(appointment?.status && isClosedStatus(appointment.status));

  async function confirm() {
    if (!engine || !complete) return;
    setConfirming(true);
    const result = await engine.generateGuide(details.appointmentId);
    if (!result.ok) {
      setConfirming(false);
      showToast({
        tone: 'error',
        title: BOOKING_TEXTS.errorTitle,
        description: shownMessage(mapWriteError(result.error), ERROR_MESSAGES.bookingFailed, [
          'storage-full',
        ]),
      });
      return;
    }
    showToast({
      tone: 'success',
      title: CHECKOUT_TEXTS.guideToast,
      description: offline ? CHECKOUT_TEXTS.guideQueued : undefined,
    });
    await navigate('/agendamento-sucesso', {
      replace: true,
      state: { appointmentId: details.appointmentId },
    });
  }

  return (
    <Container className={css({ py: { base: '8', md: '12' }, maxW: '3xl' })}>
      <h1
        className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'extrabold', mb: '6' })}
      >
        {CHECKOUT_TEXTS.title}
      </h1>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
        {rejected ? (
          <Alert tone="destructive" role="alert" title={CHECKOUT_TEXTS.rejected} />
        ) : released ? (
          <Alert tone="destructive" role="alert" title={CHECKOUT_TEXTS.released} />
        ) : pending && offline ? (
          <Alert tone="amber" role="status">
            {CHECKOUT_TEXTS.offline}
          </Alert>
        ) : pending ? (
          <Alert tone="info" role="status">
            {CHECKOUT_TEXTS.sending}
          </Alert>
        ) : null}
        <Card>
          <h2 className={sectionTitle}>{CHECKOUT_TEXTS.patientSection}</h2>
          {profileLoading ? (
            <div aria-busy="true" className={css({ display: 'grid', gap: '2' })}>
              {Array.from({ length: 5 }, (_, i) => (
                <Skeleton key={i} className={css({ h: '5' })} />
              ))}
            </div>
          ) : (
            <PatientData profile={profile ?? null} />
          )}
        </Card>
        <Card>
          <h2 className={sectionTitle}>{CHECKOUT_TEXTS.consultationSection}</h2>
          <ConsultationData details={details} />
          <div
            className={css({
              mt: '5',
              pt: '4',
              borderTopWidth: '1px',
              borderColor: 'border',
              display: 'flex',
              justifyContent: 'space-between',
              alignItems: 'baseline',
            })}
          >
            <span className={css({ fontWeight: 'semibold' })}>{CHECKOUT_TEXTS.total}</span>
            <span
              data-testid="checkout-total"
              className={css({ fontSize: '2xl', fontWeight: 'extrabold', color: 'primary.text' })}
            >
              {formatCents(details.price_in_cents)}
            </span>
          </div>
          <p className={css({ mt: '2', fontSize: 'sm', color: 'fg.muted' })}>
            {CHECKOUT_TEXTS.paymentNote}
          </p>
          {!released && (
            <p className={css({ mt: '1', fontSize: 'sm', color: 'fg.muted' })}>{HOLD_NOTE}</p>
          )}
        </Card>
        <section
          aria-labelledby="checkout-policy"
          className={css({ fontSize: 'sm', color: 'fg.muted' })}
        >
          <h2 id="checkout-policy" className={css({ fontWeight: 'semibold', color: 'fg' })}>
            {CHECKOUT_TEXTS.policyTitle}
          </h2>
          <p>{CANCELLATION_POLICY_TEXT}</p>
        </section>
        {!profileLoading && !complete && (
          <Alert tone="amber" role="status" title={CHECKOUT_TEXTS.incompleteTitle}>
            {CHECKOUT_TEXTS.incompleteDescription}
          </Alert>
        )}
        <div
          className={css({
            display: 'grid',
            gridTemplateColumns: { base: '1fr', md: 'none' },
            gridAutoFlow: { base: 'row', md: 'column' },
            gridAutoColumns: { md: '1fr' },
            gap: '3',
            '& > button': { w: 'full', whiteSpace: 'normal', h: 'auto', minH: '10', py: '2' },
          })}
        >
          {!profileLoading && !complete && (
            <Button
              variant="outline"
              onClick={() =>
                void navigate('/paciente/dashboard/dados', {
                  state: toCompleteProfileState(state),
                })
              }
            >
              {CHECKOUT_TEXTS.completeProfile}
            </Button>
          )}
          <Button variant="ghost" onClick={() => void navigate('/agendamentos')}>
            {CHECKOUT_TEXTS.back}
          </Button>
          <Button
            disabled={!complete || rejected || released || !engine}
            loading={confirming}
            onClick={() => void confirm()}
          >
            {CHECKOUT_TEXTS.confirm}
          </Button>
        </div>
      </div>
    </Container>
  );
}

/** /checkout (and /confirmacao): docs/product-rules.md §2 "Confirmation screen". */
export function CheckoutPage() {
  const location = useLocation();
  const state = useMemo(() => readCheckoutState(location.state), [location.state]);
  useEffect(() => {
    if (!state) showToast({ tone: 'error', title: CHECKOUT_TEXTS.noState });
  }, [state]);
  if (!state) return <Navigate to="/agendamentos" replace />;
  return <Checkout state={state} />;
}
