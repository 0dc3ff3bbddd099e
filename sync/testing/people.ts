import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { Temporal } from 'temporal-polyfill';
import type { TestPlatform } from './platform.ts';

export const ZONE = 'America/Sao_Paulo';
/** Every person the kit creates signs in with it. */
export const PASSWORD = 'senha-segura-123';
/** Seed doctor "Dra. Ana Ribeiro" (no auth user), 30-minute grid on weekdays 08–12 and 14–18. */
export const ANA = 'a0000000-0000-4000-8000-000000000001';

/** Someone who can sign in: a patient, or a doctor with the `medicos` row they own. */
export type Person =
  | { id: string; email: string; role: 'paciente' }
  | { id: string; email: string; role: 'medico'; medicoId: string };

export type DoctorFixture = Extract<Person, { role: 'medico' }>;

async function createUser(
  t: TestPlatform,
  opts: { userMeta: Record<string, unknown>; appMeta?: Record<string, unknown> },
): Promise<{ id: string; email: string }> {
  const email = `u-${randomUUID().slice(0, 8)}@test.example`;
  const { data, error } = await t.admin.auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
    user_metadata: opts.userMeta,
    app_metadata: opts.appMeta,
  });
  if (error) throw error;
  return { id: data.user.id, email };
}

/** Valid CPFs (check digits computed), distinct per n. */
export function cpfFor(n: number): string {
  const base = String(100000000 + n * 7919).slice(-9);
  const digits = base.split('').map(Number);
  const check = (ds: number[]) => {
    const sum = ds.reduce((s, d, i) => s + d * (ds.length + 1 - i), 0);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  const d1 = check(digits);
  return `${base}${d1}${check([...digits, d1])}`;
}

/** Every test file has a database of its own, so a counter keeps CPFs unique. */
let patients = 0;

/** A new patient, e-mail confirmed, with the profile the sign-up form asks for. */
export async function createPatient(
  t: TestPlatform,
): Promise<Extract<Person, { role: 'paciente' }>> {
  patients += 1;
  const n = patients;
  const user = await createUser(t, {
    userMeta: {
      full_name: `Paciente ${n}`,
      cpf: cpfFor(n),
      data_nasc: '1990-05-10',
      whatsapp: '(11) 91234-5678',
    },
  });
  return { ...user, role: 'paciente' };
}

type Block = {
  dia_semana: number;
  hora_inicio: string;
  hora_fim: string;
  intervalo_em_minutos: number;
};

const ALL_DAY: Block[] = [0, 1, 2, 3, 4, 5, 6].map((dia_semana) => ({
  dia_semana,
  hora_inicio: '00:00',
  hora_fim: '24:00',
  intervalo_em_minutos: 30,
}));

/** A public, active doctor linked to a user; by default available all day every day, 30-min grid. */
export async function createDoctor(
  t: TestPlatform,
  opts: { name?: string; blocks?: Block[] } = {},
): Promise<DoctorFixture> {
  const name = opts.name ?? 'Dra. Teste';
  const user = await createUser(t, { userMeta: { full_name: name }, appMeta: { role: 'medico' } });
  const { data, error } = await t.admin
    .from('medicos')
    .insert({
      user_id: user.id,
      name,
      public_name: name,
      specialty: 'Clínica Geral',
      crm: '123456',
      uf: 'SP',
      price_in_cents: 15000,
      is_public: true,
      is_active: true,
    })
    .select('id')
    .single();
  if (error) throw error;
  const medicoId = data.id as string;
  const blocks = (opts.blocks ?? ALL_DAY).map((b) => ({ ...b, medico_id: medicoId }));
  const inserted = await t.admin.from('agenda_medico').insert(blocks);
  if (inserted.error) throw inserted.error;
  return { ...user, role: 'medico', medicoId };
}

/**
 * The n-th 30-minute slot from 08:00 of the next day that is not a Sunday, in São Paulo, as an
 * ISO instant. The seeded doctor Ana works Monday to Saturday from 08:00 (supabase/seed.sql), so
 * her first slots are bookable whatever the day the tests run; a Saturday's "tomorrow" is not.
 */
export function slot(n: number): string {
  const tomorrow = Temporal.Now.zonedDateTimeISO(ZONE).toPlainDate().add({ days: 1 });
  return tomorrow
    .add({ days: tomorrow.dayOfWeek === 7 ? 1 : 0 })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from('08:00') })
    .add({ minutes: n * 30 })
    .toInstant()
    .toString();
}

/**
 * `count` confirmed appointments of `doctor` in consecutive 30-minute slots from `slot(0)`,
 * spread over `patients`; inserted in SQL (bypassing the booking RPC) so that tests and
 * benchmarks of the sync get many rows fast.
 */
export async function seedAppointments(
  t: TestPlatform,
  doctor: { medicoId: string },
  patients: readonly { id: string }[],
  count: number,
): Promise<void> {
  await t.platform.ctx.db.query(
    `insert into public.agendamentos (patient_id, medico_id, servico_id, appointment_date,
       appointment_time, horario_inicio, horario_fim, price_in_cents, mutation_id)
     select ($1::uuid[])[1 + i % array_length($1::uuid[], 1)], $2,
            (select id from public.servicos where nome = 'Teleconsulta'),
            ((s + i * interval '30 minutes') at time zone 'America/Sao_Paulo')::date,
            ((s + i * interval '30 minutes') at time zone 'America/Sao_Paulo')::time,
            s + i * interval '30 minutes', s + (i + 1) * interval '30 minutes', 15000,
            gen_random_uuid()
     from generate_series(0, $3::int - 1) i, (select $4::timestamptz as s) start`,
    [patients.map((p) => p.id), doctor.medicoId, count, slot(0)],
  );
}

/** A plain supabase-js client signed in as `user` (no replica), for acting on the server. */
export async function signedInClient(
  t: TestPlatform,
  user: { email: string },
): Promise<SupabaseClient> {
  const client = t.client();
  const { error } = await client.auth.signInWithPassword({ email: user.email, password: PASSWORD });
  if (error) throw error;
  return client;
}

/** The rows of a service-role query, typed by the caller (supabase-js is untyped here). */
export async function rows<T>(query: PromiseLike<{ data: unknown; error: unknown }>): Promise<T[]> {
  const { data, error } = await query;
  if (error) throw error as Error;
  return data as T[];
}
