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
 * The number in international digits for wa.me: a whole Brazilian number (with or without 55),
 * or a foreign one saved with its '+' and country code (E.164: 8–15 digits; a '+55' number
 * must be a whole Brazilian one). Null otherwise.
 */
function internationalDigits(phone: string): string | null {
  const digits = onlyDigits(phone);
  if (isCompleteWhatsapp(phone)) return digits.length >= 12 ? digits : `55${digits}`;
  const foreign = phone.trimStart().startsWith('+') && !digits.startsWith('55');
  if (foreign && /^[1-9]\d{7,14}$/.test(digits)) return digits;
  return null;
}

/**
 * A wa.me link that opens WhatsApp with the reminder filled in, or null when the patient's
 * number is not a whole one (WhatsApp is free text, docs/product-rules.md §5).
 */
export function whatsappReminderLink(r: WhatsappReminder): string | null {
  const international = r.phone ? internationalDigits(r.phone) : null;
  if (international === null) return null;
  return `https://wa.me/${international}?text=${encodeURIComponent(whatsappReminderText(r))}`;
}
