import type { SupabaseClient } from '@supabase/supabase-js';
import { createDoctor, createPatient, signedInClient } from '../../sync/testing/index.ts';
import type { TestPlatform } from '../../sync/testing/index.ts';

/**
 * The people around one consultation room, signed in through the real auth API: the
 * appointment's patient and doctor, and a stranger of each kind (another patient, another
 * doctor), each with an unmodified supabase-js client and their access token.
 */
export type Person = { id: string; client: SupabaseClient; token: string };

export type Consultation = {
  patient: Person;
  doctor: Person & { medicoId: string };
  otherPatient: Person;
  otherDoctor: Person & { medicoId: string };
  /**
   * A new paid appointment of the patient with the doctor, inserted as the server, starting
   * `startsIn` (a Postgres interval) from now; live ones of one test may not overlap.
   */
  appointment(opts?: { startsIn?: string; status?: string }): Promise<string>;
};

async function person(t: TestPlatform, user: { id: string; email: string }): Promise<Person> {
  const client = await signedInClient(t, user);
  const { data } = await client.auth.getSession();
  if (!data.session) throw new Error('no session');
  return { id: user.id, client, token: data.session.access_token };
}

export async function consultation(t: TestPlatform): Promise<Consultation> {
  const doctorUser = await createDoctor(t, { name: 'Dra. Sala' });
  const otherDoctorUser = await createDoctor(t, { name: 'Dr. Outro' });
  const patient = await person(t, await createPatient(t));
  return {
    patient,
    doctor: { ...(await person(t, doctorUser)), medicoId: doctorUser.medicoId },
    otherPatient: await person(t, await createPatient(t)),
    otherDoctor: { ...(await person(t, otherDoctorUser)), medicoId: otherDoctorUser.medicoId },
    appointment: (opts = {}) =>
      insertAppointment(t, { patientId: patient.id, medicoId: doctorUser.medicoId, ...opts }),
  };
}

/**
 * A paid appointment inserted as the server (bypassing the booking rules, so it may start
 * soon), starting `startsIn` (a Postgres interval) from now.
 */
export async function insertAppointment(
  t: TestPlatform,
  opts: { patientId: string; medicoId: string; startsIn?: string; status?: string },
): Promise<string> {
  const { rows } = await t.platform.ctx.db.query<{ id: string }>(
    `insert into public.agendamentos (patient_id, medico_id, servico_id, appointment_date,
       appointment_time, horario_inicio, horario_fim, price_in_cents, status, pagamento_status)
     select $1, $2, s.id, current_date, '10:00', x.inicio, x.inicio + interval '30 minutes',
       15000, $4, 'pago'
     from public.servicos s, (select date_trunc('minute', now() + $3::interval) as inicio) x
     where s.nome = 'Teleconsulta'
     returning id`,
    [opts.patientId, opts.medicoId, opts.startsIn ?? '10 minutes', opts.status ?? 'confirmado'],
  );
  return rows[0]!.id;
}
