import { paragraphs, type Mail } from './mail.ts';

/**
 * The texts of the e-mails the scheduler sends a patient: the reminders (24 h and 1 h before a
 * consultation) and the note that it was completed, once the doctor checked it in. Kept apart
 * from the auth e-mails, which Supabase Auth sends from its own templates.
 */
export type ReminderKind = '24h' | '1h' | 'concluida';

/** One claimed reminder, as public.reivindicar_lembretes answers it. */
export type DueReminder = {
  agendamento_id: string;
  tipo: ReminderKind;
  email: string;
  full_name: string;
  medico: string;
  /** São Paulo wall-clock date and time of the start, `yyyy-MM-dd` and `HH:mm:ss`. */
  appointment_date: string;
  appointment_time: string;
  meeting_link: string | null;
  guia_id: string | null;
};

export const NO_ROOM_LINK = 'o link será enviado pelo médico';

const SUBJECTS: Record<Exclude<ReminderKind, 'concluida'>, (when: string) => string> = {
  '24h': (when) => `Lembrete: sua teleconsulta é em ${when}`,
  '1h': () => 'Sua teleconsulta começa em 1 hora',
};

function whenText(r: DueReminder): string {
  const [year, month, day] = r.appointment_date.split('-');
  return `${day}/${month}/${year} às ${r.appointment_time.slice(0, 5)}`;
}

/** docs/product-rules.md §4 "Check-in": the patient is told the consultation was completed. */
function completionMail(r: DueReminder): Mail {
  const text =
    `Olá, ${r.full_name || 'paciente'}!\n\nSua teleconsulta com ${r.medico} em ${whenText(r)} foi concluída.\n` +
    'Obrigado por cuidar da sua saúde com o Saúde Já.';
  return { to: r.email, subject: 'Sua teleconsulta foi concluída', text, html: paragraphs(text) };
}

/** The e-mail for `r`; `siteUrl` is the app's public address, for the guide link. */
export function reminderMail(r: DueReminder, siteUrl: string): Mail {
  if (r.tipo === 'concluida') return completionMail(r);
  const when = whenText(r);
  const guide = r.guia_id ? `${siteUrl.replace(/\/+$/, '')}/guia/${r.guia_id}` : null;
  const lines = [
    `Olá, ${r.full_name || 'paciente'}!`,
    '',
    r.tipo === '1h'
      ? `Sua teleconsulta com ${r.medico} começa em 1 hora.`
      : `Lembrete da sua teleconsulta com ${r.medico}.`,
    `Data e horário: ${when} (horário de Brasília).`,
    `Médico: ${r.medico}`,
    `Sala da consulta: ${r.meeting_link ?? NO_ROOM_LINK}`,
    ...(guide ? [`Guia de atendimento: ${guide}`] : []),
    '',
    'Para não receber mais lembretes por e-mail, desative-os em Meus Dados.',
  ];
  const text = lines.join('\n');
  return { to: r.email, subject: SUBJECTS[r.tipo](when), text, html: paragraphs(text) };
}
