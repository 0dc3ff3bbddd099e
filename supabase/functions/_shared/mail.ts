import { fail, ok, type Result } from './http.ts';

/** One e-mail as the platform's mail port takes it. */
export type Mail = { to: string; subject: string; text: string; html: string };

export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Plain-text lines as paragraphs, escaped. */
export function paragraphs(text: string): string {
  return text
    .split('\n')
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('');
}

/**
 * How mail leaves this function: the local platform's mail port (MAILBOX_URL: dev mailbox,
 * or its SMTP_URL), else an SMTP server of its own (SMTP_URL secret on hosted Supabase), else
 * none.
 */
export type MailRoute =
  | { kind: 'port'; url: string; key: string }
  | { kind: 'smtp'; url: string; from: string }
  | { kind: 'none' };

export function mailRoute(): MailRoute {
  const port = Deno.env.get('MAILBOX_URL');
  const key = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY');
  if (port && key) return { kind: 'port', url: port, key };
  const smtp = Deno.env.get('SMTP_URL');
  if (smtp) {
    return {
      kind: 'smtp',
      url: smtp,
      from: Deno.env.get('SMTP_FROM') ?? 'Saúde Já <nao-responda@saudeja.example>',
    };
  }
  return { kind: 'none' };
}

async function sendThroughPort(route: { url: string; key: string }, mail: Mail) {
  const res = await fetch(route.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${route.key}`,
      apikey: route.key,
    },
    body: JSON.stringify(mail),
  }).catch(() => undefined);
  return res?.ok === true;
}

/** nodemailer, the standard SMTP client, loaded only where a function sends through SMTP. */
async function sendThroughSmtp(route: { url: string; from: string }, mail: Mail) {
  try {
    const nodemailer = await import('nodemailer');
    await nodemailer.createTransport(route.url).sendMail({ from: route.from, ...mail });
    return true;
  } catch {
    return false;
  }
}

/** Sends `mail` by `route`; `failure` is the message when it could not be sent. */
export async function deliverMail(
  route: MailRoute,
  mail: Mail,
  failure: string,
): Promise<Result<void>> {
  if (route.kind === 'none') {
    console.log(JSON.stringify({ msg: 'e-mail not sent (no mail route)', subject: mail.subject }));
    return ok(undefined);
  }
  const sent =
    route.kind === 'port' ? await sendThroughPort(route, mail) : await sendThroughSmtp(route, mail);
  return sent ? ok(undefined) : fail(failure, 502);
}
