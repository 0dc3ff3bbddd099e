import type { Logger } from '../log.ts';
import type { Mailer, OutgoingMail, StoredMail } from './mailer.ts';
import { extractLinks } from './render.ts';

type Transport = {
  sendMail(message: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html?: string;
  }): Promise<{ messageId: string }>;
};

/**
 * Real delivery through an SMTP server (`SMTP_URL`, e.g. `smtps://user:pass@smtp.example:465`)
 * with nodemailer, the standard Node SMTP client (loaded on first use: most runs never need it).
 * The dev mailbox then receives nothing.
 */
export function createSmtpMailer(url: string, from: string, log: Logger): Mailer {
  let transport: Promise<Transport> | undefined;
  const open = async (): Promise<Transport> => {
    const nodemailer = await import('nodemailer');
    return nodemailer.createTransport(url);
  };
  return {
    async send(mail: OutgoingMail): Promise<StoredMail> {
      transport ??= open();
      const { messageId } = await (
        await transport
      ).sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
      });
      log.info({ msg: 'mail sent through SMTP', to: mail.to, subject: mail.subject });
      return {
        ...mail,
        id: messageId,
        links: extractLinks(mail),
        created_at: new Date().toISOString(),
      };
    },
  };
}
