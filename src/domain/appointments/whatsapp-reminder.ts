import { onlyDigits } from '../identity/digits.ts';
import { isCompleteWhatsapp } from '../identity/whatsapp.ts';

/** What the room line says before the doctor has added the link (the e-mail says the same). */
export const NO_ROOM_LINK = 'o link será enviado pelo médico';

export type WhatsappReminder = {
  /** The patient's number as saved (masked or not, with or without 55). */
  phone: string | null | undefined;
  patientName: string | null | undefined;
  doctorName: string;
  /** São Paulo wall-clock time of the start, `HH:mm`. */
  time: string;
  meetingLink: string | null | undefined;
};

/** The reminder message a doctor sends on the day of the consultation. */
export function whatsappReminderText(r: WhatsappReminder): string {
  const name = r.patientName?.trim();
  const room = r.meetingLink?.trim() || NO_ROOM_LINK;
  return (
    `Olá${name ? `, ${name}` : ''}! Lembrete da sua teleconsulta com ${r.doctorName} hoje às ` +
    `${r.time} (horário de Brasília). Sala da consulta: ${room}`
  );
}

/**
 * A wa.me link that opens WhatsApp with the reminder filled in, or null when the patient has
 * no complete Brazilian number.
 */
export function whatsappReminderLink(r: WhatsappReminder): string | null {
  if (!r.phone || !isCompleteWhatsapp(r.phone)) return null;
  const digits = onlyDigits(r.phone);
  const international = digits.length >= 12 && digits.startsWith('55') ? digits : `55${digits}`;
  return `https://wa.me/${international}?text=${encodeURIComponent(whatsappReminderText(r))}`;
}
