import { useId } from 'react';
import { QRCodeSVG } from 'qrcode.react';
import { css } from 'styled-system/css';
import { PAYMENT_TEXTS, type PaymentInstructions } from '@/domain/payments/payment-instructions.ts';
import { showToast } from '@/lib/toast.ts';
import { Button } from '@/ui/button.tsx';

/** A BR Code of ~150 characters is a version-7 QR (45 modules): 200 px gives each over 4 px. */
const PIX_QR_SIZE = 200;

async function copyCode(code: string) {
  try {
    await navigator.clipboard.writeText(code);
    showToast({ tone: 'success', title: PAYMENT_TEXTS.copied });
  } catch {
    showToast({ tone: 'error', title: PAYMENT_TEXTS.copyFailed });
  }
}

function PixPayment({ payment }: { payment: Extract<PaymentInstructions, { kind: 'pix' }> }) {
  const codeId = useId();
  return (
    <div
      className={css({
        display: 'grid',
        gridTemplateColumns: { base: '1fr', md: 'auto minmax(0, 1fr)' },
        gap: '4',
        alignItems: 'start',
      })}
    >
      <div
        className={css({
          bg: 'white',
          p: '2',
          borderWidth: '1px',
          borderColor: 'border',
          borderRadius: 'md',
          justifySelf: { base: 'center', md: 'start' },
        })}
        data-testid="pix-qr"
        data-value={payment.brCode}
      >
        <QRCodeSVG
          value={payment.brCode}
          size={PIX_QR_SIZE}
          level="M"
          marginSize={2}
          title={PAYMENT_TEXTS.qrLabel}
        />
      </div>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', minW: '0' })}>
        <p className={css({ fontSize: 'sm' })}>{PAYMENT_TEXTS.pixIntro}</p>
        <dl
          className={css({
            fontSize: 'sm',
            '& dt': { color: 'fg.muted' },
            '& dd': { fontWeight: 'medium', overflowWrap: 'anywhere' },
          })}
        >
          <dt>{PAYMENT_TEXTS.recipient}</dt>
          <dd>{payment.recipient}</dd>
          <dt>{PAYMENT_TEXTS.keyLabel}</dt>
          <dd>
            {payment.key} ({payment.keyLabel})
          </dd>
        </dl>
        <label htmlFor={codeId} className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
          {PAYMENT_TEXTS.codeLabel}
        </label>
        <textarea
          id={codeId}
          readOnly
          rows={4}
          value={payment.brCode}
          data-testid="pix-code"
          onFocus={(e) => e.currentTarget.select()}
          className={css({
            fontFamily: 'mono',
            fontSize: 'xs',
            p: '2',
            borderWidth: '1px',
            borderColor: 'border',
            borderRadius: 'md',
            bg: 'bg.subtle',
            resize: 'none',
            wordBreak: 'break-all',
            w: 'full',
          })}
        />
        <div className={css({ _print: { display: 'none' } })}>
          <Button size="sm" onClick={() => void copyCode(payment.brCode)}>
            {PAYMENT_TEXTS.copy}
          </Button>
        </div>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{payment.note}</p>
      </div>
    </div>
  );
}

/** The guide's payment instructions: PIX copia e cola, or how the doctor gets in touch. */
export function PaymentSection({ payment }: { payment: PaymentInstructions }) {
  return (
    <section
      aria-labelledby="guide-pay"
      data-testid="guide-payment"
      className={css({
        borderWidth: '1px',
        borderColor: 'border',
        borderRadius: 'lg',
        p: '4',
        breakInside: 'avoid',
      })}
    >
      <h2 id="guide-pay" className={css({ fontWeight: 'bold', mb: '2' })}>
        {payment.kind === 'pix' ? PAYMENT_TEXTS.pixTitle : PAYMENT_TEXTS.noKeyTitle}
      </h2>
      {payment.kind === 'pix' ? (
        <PixPayment payment={payment} />
      ) : (
        <p className={css({ fontSize: 'sm' })}>{payment.note}</p>
      )}
    </section>
  );
}
