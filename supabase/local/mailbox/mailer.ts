/**
 * The mail port: auth and edge functions send through it. Locally every message lands in the
 * dev mailbox (`/mailbox`), like Supabase's Inbucket, or goes out through SMTP (`smtp.ts`).
 */
export type OutgoingMail = { to: string; subject: string; text: string; html: string };

export type StoredMail = OutgoingMail & { id: string; links: string[]; created_at: string };

export interface Mailer {
  send(mail: OutgoingMail): Promise<StoredMail>;
}
