import { CANCELLATION_POLICY_TEXT } from '@/domain/rules/policy.ts';
import { PAYMENT_TEXTS, type PaymentInstructions } from '@/domain/payments/payment-instructions.ts';
import { GUIDE_TEXTS } from './texts.ts';

/** A guide already formatted for people, as the guide page shows it. */
export type GuideSheet = {
  protocol: string;
  issuedOn: string;
  patient: { name: string; cpf: string; birthDate: string; contact: string };
  doctor: { name: string; specialty: string; crm: string };
  consultation: { service: string; date: string; time: string };
  payment: { value: string; status: string };
  qrValue: string;
};

export type PdfSection = { title: string; rows: [label: string, value: string][] };

/** What the PDF prints, in reading order; the renderer only lays it out. */
export type GuidePdfContent = {
  fileName: string;
  title: string;
  meta: string[];
  qr: { value: string; caption: string };
  sections: PdfSection[];
  payment: PdfSection & {
    notes: string[];
    pix: { code: string; caption: string; qrCaption: string } | null;
  };
  explanation: string;
  policy: { title: string; text: string };
  /** The document's title and language in its metadata. */
  language: 'pt-BR';
};

export const PDF_TEXTS = {
  qrCaption: 'Apresente este QR Code ou o protocolo no dia do atendimento.',
  timeZone: '(horário de Brasília)',
} as const;

/** 'guia-SJ-2026-ABCD-EFGH.pdf'; anything but letters, digits and '-' leaves the name. */
export function guidePdfFileName(protocol: string): string {
  const safe = protocol.replace(/[^A-Za-z0-9-]/g, '');
  return `guia-${safe || 'sem-protocolo'}.pdf`;
}

function paymentSection(
  sheet: GuideSheet,
  payment: PaymentInstructions,
): GuidePdfContent['payment'] {
  const t = GUIDE_TEXTS;
  const rows: PdfSection['rows'] = [
    [t.value, sheet.payment.value],
    [t.status, sheet.payment.status],
  ];
  if (payment.kind !== 'pix') {
    return { title: t.payment, rows, notes: [payment.note], pix: null };
  }
  rows.push(
    [PAYMENT_TEXTS.recipient, payment.recipient],
    [PAYMENT_TEXTS.keyLabel, `${payment.key} (${payment.keyLabel})`],
  );
  return {
    title: t.payment,
    rows,
    notes: [PAYMENT_TEXTS.pixIntro, payment.note],
    pix: {
      code: payment.brCode,
      caption: PAYMENT_TEXTS.codeLabel,
      qrCaption: PAYMENT_TEXTS.qrLabel,
    },
  };
}

/** The printable guide: the page's data, its QR, the payment section and the policy. */
export function guidePdfContent(sheet: GuideSheet, payment: PaymentInstructions): GuidePdfContent {
  const t = GUIDE_TEXTS;
  return {
    fileName: guidePdfFileName(sheet.protocol),
    title: t.title,
    meta: [`${t.protocol}: ${sheet.protocol}`, `${t.issuedOn}: ${sheet.issuedOn}`],
    qr: { value: sheet.qrValue, caption: PDF_TEXTS.qrCaption },
    sections: [
      {
        title: t.patient,
        rows: [
          [t.name, sheet.patient.name],
          [t.cpf, sheet.patient.cpf],
          [t.birthDate, sheet.patient.birthDate],
          [t.contact, sheet.patient.contact],
        ],
      },
      {
        title: t.doctor,
        rows: [
          [t.name, sheet.doctor.name],
          [t.specialty, sheet.doctor.specialty],
          [t.crm, sheet.doctor.crm],
        ],
      },
      {
        title: t.consultation,
        rows: [
          [t.service, sheet.consultation.service],
          [t.date, sheet.consultation.date],
          [t.time, `${sheet.consultation.time} ${PDF_TEXTS.timeZone}`],
        ],
      },
    ],
    payment: paymentSection(sheet, payment),
    explanation: t.explanation,
    policy: { title: t.policyTitle, text: CANCELLATION_POLICY_TEXT },
    language: 'pt-BR',
  };
}
