import { PIX_KEY_TYPE_LABELS, pixKeyTypeOf } from './pix-key.ts';
import { staticBrCode } from './br-code.ts';

export const PAYMENT_TEXTS = {
  pixTitle: 'Pagamento via PIX',
  pixIntro:
    'Pague o valor da consulta com o PIX copia e cola ou lendo o QR Code no app do seu banco.',
  pixConfirm:
    'O médico confirma o pagamento. Depois da confirmação, o status desta guia muda para Pago.',
  codeLabel: 'PIX copia e cola',
  keyLabel: 'Chave PIX',
  recipient: 'Recebedor',
  qrLabel: 'QR Code do PIX',
  copy: 'Copiar código PIX',
  copied: 'Código PIX copiado.',
  copyFailed: 'Não foi possível copiar. Selecione o código e copie manualmente.',
  noKeyTitle: 'Como pagar',
  noKey:
    'O médico entrará em contato pelo WhatsApp ou e-mail do seu cadastro para combinar o pagamento.',
  paid: 'Pagamento confirmado pelo médico.',
  cancelled: 'Consulta cancelada: não há pagamento a fazer.',
} as const;

export type PaymentInstructions =
  | {
      kind: 'pix';
      brCode: string;
      keyLabel: string;
      key: string;
      recipient: string;
      note: string;
    }
  | { kind: 'contact' | 'settled'; note: string };

export type PaymentInput = {
  doctor: { name: string; pix_chave: string | null; pix_cidade: string | null } | null;
  amountCents: number | null;
  protocol: string;
  pagamentoStatus: string | null;
  /** The appointment is cancelled or expired. */
  closed: boolean;
};

/**
 * What the guide says about paying: a static PIX code while payment is due and the doctor has
 * a key; how the doctor gets in touch when there is none; nothing to pay once paid or closed.
 */
export function paymentInstructions(input: PaymentInput): PaymentInstructions {
  if (input.pagamentoStatus === 'pago') return { kind: 'settled', note: PAYMENT_TEXTS.paid };
  if (input.closed || input.pagamentoStatus === 'cancelado') {
    return { kind: 'settled', note: PAYMENT_TEXTS.cancelled };
  }
  const key = input.doctor?.pix_chave ?? null;
  const type = key ? pixKeyTypeOf(key) : null;
  if (!input.doctor || !key || !type || !input.protocol) {
    return { kind: 'contact', note: PAYMENT_TEXTS.noKey };
  }
  return {
    kind: 'pix',
    brCode: staticBrCode({
      key,
      name: input.doctor.name,
      city: input.doctor.pix_cidade ?? '',
      amountCents: input.amountCents ?? 0,
      protocol: input.protocol,
    }),
    keyLabel: PIX_KEY_TYPE_LABELS[type],
    key,
    recipient: input.doctor.name,
    note: PAYMENT_TEXTS.pixConfirm,
  };
}
