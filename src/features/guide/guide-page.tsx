import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { QRCodeSVG } from 'qrcode.react';
import { of } from 'rxjs';
import { css, cx } from 'styled-system/css';
import {
  GUIDE_QR_ENLARGED_SIZE,
  GUIDE_QR_LEVEL,
  GUIDE_QR_MARGIN,
  GUIDE_QR_SIZE,
} from '@/domain/guides/qr.ts';
import { CANCELLATION_POLICY_TEXT } from '@/domain/rules/policy.ts';
import { dashboardPath, useAuth } from '@/session/auth-context.ts';
import { useObservable, useSyncSession } from '@/session/sync-provider.tsx';
import { showToast } from '@/lib/toast.ts';
import { Button } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';
import { Dialog } from '@/ui/dialog.tsx';
import { Container } from '@/ui/container.tsx';
import { PageSpinner } from '@/ui/spinner.tsx';
import { GUIDE_TEXTS } from '@/domain/guides/texts.ts';
import type { PaymentInstructions } from '@/domain/payments/payment-instructions.ts';
import { guidePayment, toGuideView, type GuideView } from '@/domain/guides/guide-view.ts';
import {
  DOCUMENT_TEXTS,
  downloadGuidePdf,
  GuideDocumentActions,
} from '@/session/guide-documents.tsx';
import type { GuiaDoc } from '../../../sync/index.ts';
import { PaymentSection } from './payment-section.tsx';

export { GUIDE_TEXTS };

const noPrint = css({ _print: { display: 'none!' } });

const grid = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))' },
  gap: '4',
});

const box = css({
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'lg',
  p: '4',
  breakInside: 'avoid',
});

// Label beside value where there is room; on phones the label goes above its value, so a
// name or a status is never cut mid-word to fit a narrow second column.
const dl = css({
  display: 'grid',
  gridTemplateColumns: { base: 'minmax(0, 1fr)', sm: '9rem minmax(0, 1fr)' },
  columnGap: '3',
  rowGap: { base: '0.5', sm: '1.5' },
  fontSize: 'sm',
  '& dt': { color: 'fg.muted' },
  '& dt:not(:first-of-type)': { mt: { base: '2', sm: '0' } },
  '& dd': { fontWeight: 'medium', overflowWrap: 'break-word' },
});

function Section({ title, rows }: { title: string; rows: [string, ReactNode][] }) {
  return (
    <section className={box} aria-label={title}>
      <h2 className={css({ fontWeight: 'bold', mb: '2' })}>{title}</h2>
      <dl className={dl}>
        {rows.map(([label, value]) => (
          <div key={label} className={css({ display: 'contents' })}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function GuideQr({ value }: { value: string }) {
  const [enlarged, setEnlarged] = useState(false);
  return (
    <>
      <button
        type="button"
        aria-label={GUIDE_TEXTS.qrEnlarge}
        onClick={() => setEnlarged(true)}
        data-testid="guide-qr"
        data-value={value}
        className={css({
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          gap: '1',
          p: '2',
          bg: 'white',
          borderWidth: '1px',
          borderColor: 'border',
          borderRadius: 'md',
          cursor: 'zoom-in',
          mx: { base: 'auto', sm: '0' },
        })}
      >
        <QRCodeSVG
          value={value}
          size={GUIDE_QR_SIZE}
          level={GUIDE_QR_LEVEL}
          marginSize={GUIDE_QR_MARGIN}
          title={GUIDE_TEXTS.qrLabel}
        />
        <span className={cx(noPrint, css({ fontSize: 'xs', color: 'gray.700' }))}>
          {GUIDE_TEXTS.qrHint}
        </span>
      </button>
      <Dialog open={enlarged} onOpenChange={setEnlarged} title={GUIDE_TEXTS.qrLabel}>
        <div
          data-testid="guide-qr-enlarged"
          className={css({ mt: '4', bg: 'white', display: 'flex', justifyContent: 'center' })}
        >
          <QRCodeSVG
            value={value}
            size={GUIDE_QR_ENLARGED_SIZE}
            level={GUIDE_QR_LEVEL}
            marginSize={GUIDE_QR_MARGIN}
            title={GUIDE_TEXTS.qrLabel}
            className={css({ w: 'full', h: 'auto', maxW: '80vw' })}
          />
        </div>
      </Dialog>
    </>
  );
}

export function GuideDocument({
  view,
  payment,
  actions,
}: {
  view: GuideView;
  payment: PaymentInstructions;
  actions: ReactNode;
}) {
  const t = GUIDE_TEXTS;
  return (
    <Card
      className={css({
        display: 'flex',
        flexDirection: 'column',
        gap: '5',
        _print: { boxShadow: 'none', borderWidth: '0' },
      })}
    >
      <header
        className={css({
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'flex-start',
          gap: '4',
          flexWrap: 'wrap',
        })}
      >
        <div>
          <h1 className={css({ fontSize: '2xl', fontWeight: 'extrabold' })}>{t.title}</h1>
          <p className={css({ mt: '1', fontSize: 'sm', color: 'fg.muted' })}>
            {t.protocol}:{' '}
            <strong
              data-testid="guide-protocol"
              className={css({ color: 'fg', fontFamily: 'mono' })}
            >
              {view.protocol}
            </strong>
          </p>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            {t.issuedOn}: <span className={css({ color: 'fg' })}>{view.issuedOn}</span>
          </p>
        </div>
        <GuideQr value={view.qrValue} />
      </header>
      <div className={grid}>
        <Section
          title={t.patient}
          rows={[
            [t.name, view.patient.name],
            [t.cpf, view.patient.cpf],
            [t.birthDate, view.patient.birthDate],
            [t.contact, view.patient.contact],
          ]}
        />
        <Section
          title={t.doctor}
          rows={[
            [t.name, view.doctor.name],
            [t.specialty, view.doctor.specialty],
            [t.crm, view.doctor.crm],
          ]}
        />
        <Section
          title={t.consultation}
          rows={[
            [t.service, view.consultation.service],
            [t.date, view.consultation.date],
            [t.time, view.consultation.time],
          ]}
        />
        <Section
          title={t.payment}
          rows={[
            [t.value, view.payment.value],
            [t.status, view.payment.status],
          ]}
        />
      </div>
      <PaymentSection payment={payment} />
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t.explanation}</p>
      <section
        aria-labelledby="guide-policy"
        className={css({ fontSize: 'sm', color: 'fg.muted' })}
      >
        <h2 id="guide-policy" className={css({ fontWeight: 'semibold', color: 'fg' })}>
          {t.policyTitle}
        </h2>
        <p>{CANCELLATION_POLICY_TEXT}</p>
      </section>
      {actions}
    </Card>
  );
}

/** A guide whose appointment this device does not hold still prints. */
function StandalonePdfButton({ guide }: { guide: GuiaDoc }) {
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    try {
      await downloadGuidePdf(guide, null);
    } catch (cause) {
      console.error(cause);
      showToast({ tone: 'error', title: DOCUMENT_TEXTS.pdfFailed });
    }
    setBusy(false);
  }
  return (
    <div className={noPrint}>
      <Button variant="outline" loading={busy} onClick={() => void download()}>
        {GUIDE_TEXTS.download}
      </Button>
    </div>
  );
}

/** /guia/{guideId}: the guide from the replica (docs/product-rules.md §2 "Guide page"). */
export function GuidePage() {
  const { guideId = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const { role } = useAuth();
  const { engine } = useSyncSession();
  const guide$ = useMemo(() => (engine ? engine.guide$(guideId) : null), [engine, guideId]);
  const status$ = useMemo(() => engine?.status$ ?? of(null), [engine]);
  const guide = useObservable(guide$, undefined);
  const status = useObservable(status$, null);
  const appointmentId = guide?.agendamento_id ?? null;
  const appointment$ = useMemo(
    () => (engine && appointmentId ? engine.appointment$(appointmentId) : of(null)),
    [engine, appointmentId],
  );
  const appointment = useObservable(appointment$, null);
  const view = useMemo(
    () => (guide ? toGuideView(guide, appointment) : null),
    [guide, appointment],
  );
  const payment = useMemo(
    () => (guide ? guidePayment(guide, appointment) : null),
    [guide, appointment],
  );
  const notFound = guide === null && status !== null && status.initialSync.done;

  // docs/product-rules.md §8: the toast, then back where the person came from; opened
  // directly (no earlier page in this tab: the router's first location), their dashboard.
  const openedDirectly = location.key === 'default';
  useEffect(() => {
    if (!notFound) return;
    showToast({
      tone: 'error',
      title: GUIDE_TEXTS.notFoundToastTitle,
      description: GUIDE_TEXTS.notFoundToastDescription,
    });
    if (openedDirectly) void navigate(dashboardPath(role), { replace: true });
    else void navigate(-1);
  }, [notFound, openedDirectly, navigate, role]);

  if (notFound) {
    return (
      <Container className={css({ py: '16', textAlign: 'center' })}>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{GUIDE_TEXTS.notFound}</h1>
        <p className={css({ mt: '2', color: 'fg.muted' })}>
          {GUIDE_TEXTS.notFoundToastDescription}
        </p>
        <Button variant="outline" className={css({ mt: '6' })} onClick={() => void navigate(-1)}>
          {GUIDE_TEXTS.back}
        </Button>
      </Container>
    );
  }
  if (!view || !payment || !guide) return <PageSpinner />;
  return (
    <Container className={css({ py: { base: '6', md: '10' }, maxW: '4xl', _print: { py: '0' } })}>
      <GuideDocument
        view={view}
        payment={payment}
        actions={
          appointment ? (
            <GuideDocumentActions
              appointment={appointment}
              guide={guide}
              size="md"
              withName={view.doctor.name}
            />
          ) : (
            <StandalonePdfButton guide={guide} />
          )
        }
      />
    </Container>
  );
}
