import { callerId } from '../_shared/caller.ts';
import { UUID, fail, json, ok, preflight, readJsonObject, type Result } from '../_shared/http.ts';
import { deliverMail, mailRoute, paragraphs, type Mail } from '../_shared/mail.ts';
import { serviceClient, type ServiceClient } from '../_shared/service-client.ts';

/**
 * Tells a patient by e-mail that their consultation was completed. Called by the doctor's app
 * after check-in with `{appointmentId}`; only that appointment's doctor may trigger it.
 * Mail goes out through _shared/mail.ts (the platform's mail port, or SMTP_URL); where neither
 * is configured the message is only logged.
 */
type Appointment = {
  id: string;
  status: string;
  patient_id: string;
  medico_id: string;
  appointment_date: string;
  appointment_time: string;
};

async function composeMail(
  admin: ServiceClient,
  appointmentId: string,
  doctorUserId: string,
): Promise<Result<Mail>> {
  const found = await admin
    .from('agendamentos')
    .select('id, status, patient_id, medico_id, appointment_date, appointment_time')
    .eq('id', appointmentId)
    .maybeSingle<Appointment>();
  if (found.error) return fail(found.error.message, 500);
  const a = found.data;
  const doctor = a
    ? await admin
        .from('medicos')
        .select('public_name, user_id')
        .eq('id', a.medico_id)
        .single<{ public_name: string; user_id: string | null }>()
    : undefined;
  if (!a || !doctor || doctor.error || doctor.data.user_id !== doctorUserId) {
    return fail('Agendamento não encontrado.', 404);
  }
  if (a.status !== 'atendido') return fail('O atendimento ainda não foi confirmado.', 409);
  const patient = await admin
    .from('perfis_usuarios')
    .select('full_name, email')
    .eq('id', a.patient_id)
    .single<{ full_name: string; email: string | null }>();
  if (patient.error) return fail(patient.error.message, 500);
  if (!patient.data.email) return fail('O paciente não tem e-mail cadastrado.', 409);

  const [year, month, day] = a.appointment_date.split('-');
  const when = `${day}/${month}/${year} às ${a.appointment_time.slice(0, 5)}`;
  const name = patient.data.full_name || 'paciente';
  const text =
    `Olá, ${name}!\n\nSua teleconsulta com ${doctor.data.public_name} em ${when} foi concluída.\n` +
    'Obrigado por cuidar da sua saúde com o Saúde Já.';
  return ok({
    to: patient.data.email,
    subject: 'Sua teleconsulta foi concluída',
    text,
    html: paragraphs(text),
  });
}

export async function handleNotify(req: Request): Promise<Response> {
  const early = preflight(req);
  if (early) return early;
  if (req.method !== 'POST') return json({ success: false, message: 'Método não permitido.' }, 405);
  const body = await readJsonObject(req);
  const appointmentId = body?.appointmentId;
  if (typeof appointmentId !== 'string' || !UUID.test(appointmentId)) {
    return json({ success: false, message: 'Parâmetros inválidos. appointmentId ausente.' }, 400);
  }
  const admin = serviceClient();
  if (!admin.ok) return json({ success: false, message: admin.message }, 500);
  const caller = await callerId(admin.value, req);
  if (!caller.ok) return json({ success: false, message: caller.message }, caller.status);
  const mail = await composeMail(admin.value, appointmentId, caller.value);
  if (!mail.ok) return json({ success: false, message: mail.message }, mail.status);
  const sent = await deliverMail(mailRoute(), mail.value, 'Não foi possível enviar a notificação.');
  return sent.ok
    ? json({ success: true, message: 'Paciente notificado.' })
    : json({ success: false, message: sent.message }, sent.status);
}
