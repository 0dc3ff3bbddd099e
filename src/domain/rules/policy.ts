import { Temporal } from 'temporal-polyfill';
import { parseInstant } from '../time/zone.ts';
import { isClosedStatus, isPaid, type AppointmentState } from '../appointments/status.ts';
import { CHECKOUT_HOLD_MINUTES, SELF_CANCEL_NOTICE_HOURS } from './policy-defaults.ts';

/** The policy as shown at checkout, on the guide and in the cancel dialog. */
export const CANCELLATION_POLICY_TEXT =
  `Você pode cancelar sua consulta pelo painel até ${SELF_CANCEL_NOTICE_HOURS} horas antes do horário marcado. ` +
  'Se o pagamento já foi feito, o reembolso é combinado diretamente com o médico. ' +
  `Um horário escolhido fica reservado por ${CHECKOUT_HOLD_MINUTES} minutos até a guia ser gerada.`;

export const HOLD_NOTE = `Este horário fica reservado por ${CHECKOUT_HOLD_MINUTES} minutos. Gere a guia para confirmar o agendamento.`;

export const TOO_LATE_TO_CANCEL = `O cancelamento pelo paciente só é possível até ${SELF_CANCEL_NOTICE_HOURS} horas antes da consulta. Fale com o médico.`;

export type CancellableAppointment = AppointmentState & {
  horario_inicio: string;
  guia_id: string | null;
};

/** A booking still in checkout: no guide and unpaid. It is released freely and expires. */
export function isCheckoutHold(
  a: Pick<CancellableAppointment, 'status' | 'pagamento_status' | 'guia_id'>,
): boolean {
  return !a.guia_id && !isPaid(a) && !isClosedStatus(a.status) && a.status !== 'atendido';
}

export type SelfCancelCheck =
  { allowed: true } | { allowed: false; reason: 'closed' | 'attended' | 'cancel_too_late' };

/** The server's rule (paciente_cancelar_agendamento), so the dialog can say no before sending. */
export function selfCancelCheck(a: CancellableAppointment, now: Temporal.Instant): SelfCancelCheck {
  if (isClosedStatus(a.status)) return { allowed: false, reason: 'closed' };
  if (a.status === 'atendido') return { allowed: false, reason: 'attended' };
  if (isCheckoutHold(a)) return { allowed: true };
  const start = parseInstant(a.horario_inicio);
  if (!start) return { allowed: false, reason: 'cancel_too_late' };
  const latest = start.subtract({ hours: SELF_CANCEL_NOTICE_HOURS });
  return Temporal.Instant.compare(now, latest) <= 0
    ? { allowed: true }
    : { allowed: false, reason: 'cancel_too_late' };
}
