import { json, preflight, readJsonObject, requireEnv } from '../_shared/http.ts';
import { deliverMail, mailRoute } from '../_shared/mail.ts';
import { reminderMail, type DueReminder } from '../_shared/reminder-mail.ts';
import { serviceClient } from '../_shared/service-client.ts';

/**
 * Sends the reminder e-mails that are due (24 h and 1 h before each consultation) and the note
 * to each patient whose consultation the doctor checked in since the last run. Called by a
 * scheduler with the service-role key: locally `scripts/scheduler.ts`, on hosted Supabase
 * pg_cron (README). `{now}` (an ISO instant) sets the clock the reminders are due by; without
 * it, the database's now(). Each reminder is claimed in the database before it is sent, so it
 * goes out once even when runs overlap or the server restarts; one that could not be sent is
 * given back and tried at the next run.
 */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function isServiceRole(req: Request): boolean {
  const key = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY');
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '')?.[1];
  return Boolean(key) && token === key;
}

function readNow(body: Record<string, unknown>): string | null | undefined {
  const now = body.now;
  if (now === undefined || now === null) return null;
  return typeof now === 'string' && ISO_INSTANT.test(now) && !Number.isNaN(Date.parse(now))
    ? now
    : undefined;
}

export async function handleReminders(req: Request): Promise<Response> {
  const early = preflight(req);
  if (early) return early;
  if (req.method !== 'POST') return json({ success: false, message: 'Método não permitido.' }, 405);
  if (!isServiceRole(req)) return json({ success: false, message: 'Acesso negado.' }, 403);
  const body = await readJsonObject(req);
  const now = body ? readNow(body) : undefined;
  if (now === undefined) {
    return json(
      { success: false, message: 'Parâmetros inválidos. now deve ser um instante ISO.' },
      400,
    );
  }
  const route = mailRoute();
  if (route.kind === 'none') {
    return json({ success: false, message: 'Nenhum envio de e-mail configurado (SMTP_URL).' }, 503);
  }
  const site = requireEnv('SITE_URL');
  if (!site.ok) return json({ success: false, message: site.message }, 500);
  const admin = serviceClient();
  if (!admin.ok) return json({ success: false, message: admin.message }, 500);
  const claimed = await admin.value.rpc('reivindicar_lembretes', { p_agora: now });
  if (claimed.error) return json({ success: false, message: claimed.error.message }, 500);
  let sent = 0;
  let failed = 0;
  for (const reminder of (claimed.data ?? []) as DueReminder[]) {
    const result = await deliverMail(route, reminderMail(reminder, site.value), 'falha no envio');
    if (result.ok) {
      sent += 1;
      continue;
    }
    failed += 1;
    await admin.value.rpc('liberar_lembrete', {
      p_agendamento_id: reminder.agendamento_id,
      p_tipo: reminder.tipo,
    });
  }
  return json({ success: failed === 0, sent, failed }, failed === 0 ? 200 : 502);
}
