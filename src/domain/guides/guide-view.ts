import * as v from 'valibot';
import { orNotInformed } from '@/domain/account/profile-completeness.ts';
import { isClosedStatus } from '@/domain/appointments/status.ts';
import { maskCpf } from '@/domain/identity/cpf.ts';
import { formatCents } from '@/domain/money/money.ts';
import {
  paymentInstructions,
  type PaymentInstructions,
} from '@/domain/payments/payment-instructions.ts';
import { formatCalendarDate, formatInstantDate } from '@/domain/time/display.ts';
import { parseInstant } from '@/domain/time/zone.ts';
import type { GuideSheet } from './pdf-content.ts';
import { guideQrValue } from './qr.ts';

/** The columns of a guide row (the replica's `GuiaDoc`) that the guide shows. */
export type GuideRecord = {
  protocolo: string | null;
  qr_text: string | null;
  data_emissao: string | null;
  paciente_snapshot: unknown;
  medico_snapshot: unknown;
  servico_snapshot: unknown;
};

/** What the payment section reads of the guide's appointment (the replica's `AppointmentView`). */
export type GuidePaymentContext = {
  pagamento_status: string | null;
  status: string | null;
  medico: {
    name: string | null;
    public_name: string | null;
    pix_chave: string | null;
    pix_cidade: string | null;
  } | null;
} | null;

const text = v.nullish(v.string());

/** The snapshots are jsonb written by the server; read them defensively (CONTRACT.md). */
const PatientSnapshot = v.object({ nome: text, cpf: text, data_nasc: text, whatsapp: text });
const DoctorSnapshot = v.object({ nome: text, especialidade: text, crm: text });
const ServiceSnapshot = v.object({
  nome: text,
  data: text,
  hora: text,
  preco_centavos: v.nullish(v.number()),
});

function snapshot<T extends v.GenericSchema>(schema: T, value: unknown): Partial<v.InferOutput<T>> {
  const parsed = v.safeParse(schema, value ?? {});
  return parsed.success ? parsed.output : {};
}

/** docs/product-rules.md §9 storage time 'HH:mm:ss' shown as 'HH:MM'. */
function shortTime(value: string | null | undefined): string | null {
  const match = value ? /^(\d{2}:\d{2})/.exec(value) : null;
  return match?.[1] ?? null;
}

function crmText(value: string | null | undefined): string {
  if (!value?.trim()) return orNotInformed(null);
  return value.trim().toUpperCase().startsWith('CRM') ? value.trim() : `CRM ${value.trim()}`;
}

const PAYMENT_STATUS_LABEL = 'Aguardando Pagamento';

/**
 * The payment line follows the appointment (the product-rules fixed 'Aguardando Pagamento' is the
 * state at issue): once the doctor confirms the payment the printed guide says so.
 */
export function paymentStatusLabel(pagamentoStatus: string | null | undefined): string {
  switch (pagamentoStatus) {
    case 'pago':
      return 'Pago';
    case 'cancelado':
      return 'Cancelado';
    default:
      return PAYMENT_STATUS_LABEL;
  }
}

/** Everything the guide page prints, already formatted. */
export type GuideView = GuideSheet;

export function toGuideView(
  guide: GuideRecord,
  appointment: { pagamento_status: string | null } | null = null,
): GuideView {
  const protocol = guide.protocolo ?? '';
  const patient = snapshot(PatientSnapshot, guide.paciente_snapshot);
  const doctor = snapshot(DoctorSnapshot, guide.medico_snapshot);
  const service = snapshot(ServiceSnapshot, guide.servico_snapshot);
  const issued = guide.data_emissao ? parseInstant(guide.data_emissao) : null;
  return {
    protocol,
    issuedOn: issued ? formatInstantDate(issued) : orNotInformed(null),
    patient: {
      name: orNotInformed(patient.nome),
      cpf: orNotInformed(patient.cpf ? maskCpf(patient.cpf) : null),
      birthDate: orNotInformed(formatCalendarDate(patient.data_nasc)),
      contact: orNotInformed(patient.whatsapp),
    },
    doctor: {
      name: orNotInformed(doctor.nome),
      specialty: orNotInformed(doctor.especialidade),
      crm: crmText(doctor.crm),
    },
    consultation: {
      service: orNotInformed(service.nome),
      date: orNotInformed(formatCalendarDate(service.data)),
      time: orNotInformed(shortTime(service.hora)),
    },
    payment: {
      value: formatCents(service.preco_centavos),
      status: paymentStatusLabel(appointment?.pagamento_status),
    },
    qrValue: guideQrValue({ qr_text: guide.qr_text, protocolo: protocol }),
  };
}

/** The guide's payment section: PIX from the doctor's key, or how the doctor gets in touch. */
export function guidePayment(
  guide: GuideRecord,
  appointment: GuidePaymentContext,
): PaymentInstructions {
  const doctor = snapshot(DoctorSnapshot, guide.medico_snapshot);
  const service = snapshot(ServiceSnapshot, guide.servico_snapshot);
  const medico = appointment?.medico ?? null;
  return paymentInstructions({
    doctor: medico
      ? {
          name: doctor.nome || medico.public_name || medico.name || '',
          pix_chave: medico.pix_chave,
          pix_cidade: medico.pix_cidade,
        }
      : null,
    amountCents: service.preco_centavos ?? null,
    protocol: guide.protocolo ?? '',
    pagamentoStatus: appointment?.pagamento_status ?? null,
    closed: Boolean(appointment?.status && isClosedStatus(appointment.status)),
  });
}
