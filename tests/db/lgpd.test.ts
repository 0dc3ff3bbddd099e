import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_METADATA_KEY, TERMS_VERSION } from '../../src/domain/rules/consent.ts';
import type { Queryable } from '../../supabase/local/db/types.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';
import { cpfFor, createDoctor, ensureService, slot, type DoctorFixture } from './support.ts';

/**
 * LGPD through the real HTTP API: the consent recorded at sign-up (readable by its owner,
 * changed by nobody), the data export and the account deletion.
 */
let t: TestPlatform;
let doctor: DoctorFixture;
let doctorClient: SupabaseClient;
const PASSWORD = 'senha-segura-123';

beforeAll(async () => {
  t = await startTestPlatform({ config: { autoconfirm: true, bcryptCost: 4 } });
  await ensureService(t.platform.ctx.db);
  doctor = await createDoctor(t.platform.ctx.db, { name: 'Dra. Lgpd' });
  const email = `medica-${randomUUID().slice(0, 8)}@test.example`;
  await t.admin.auth.admin.updateUserById(doctor.userId, { email, password: PASSWORD });
  doctorClient = t.client();
  const signed = await doctorClient.auth.signInWithPassword({ email, password: PASSWORD });
  expect(signed.error).toBeNull();
}, 180_000);

afterAll(() => t.stop());

type Patient = { id: string; email: string; client: SupabaseClient };

/** Signs a patient up through /auth/v1 as the form does, consenting unless told otherwise. */
async function signUpPatient(n: number, consent: string | null = TERMS_VERSION): Promise<Patient> {
  const email = `paciente-${n}-${randomUUID().slice(0, 8)}@test.example`;
  const client = t.client();
  const { data, error } = await client.auth.signUp({
    email,
    password: PASSWORD,
    options: {
      data: {
        full_name: `Paciente Lgpd ${n}`,
        cpf: cpfFor(100 + n),
        data_nasc: '1990-01-01',
        whatsapp: '(11) 98888-7777',
        role: 'paciente',
        ...(consent ? { [CONSENT_METADATA_KEY]: consent } : {}),
      },
    },
  });
  expect(error).toBeNull();
  return { id: data.user!.id, email, client };
}

/** An appointment of `patient` with the doctor at `start`, in status `status`. */
async function appointment(
  db: Queryable,
  patient: string,
  start: string,
  status = 'confirmado',
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.agendamentos (patient_id, medico_id, servico_id, appointment_date,
       appointment_time, horario_inicio, horario_fim, price_in_cents, status, pagamento_status)
     select $1, $2, s.id, ($3::timestamptz at time zone 'America/Sao_Paulo')::date,
       ($3::timestamptz at time zone 'America/Sao_Paulo')::time, $3::timestamptz,
       $3::timestamptz + interval '30 minutes', 15000, $4, 'pago'
     from public.servicos s limit 1 returning id`,
    [patient, doctor.medicoId, start, status],
  );
  return rows[0]!.id;
}

describe('telemedicine consent', () => {
  it('is recorded at sign-up with the terms version and the server time', async () => {
    const before = Date.now();
    const p = await signUpPatient(1);
    const { data, error } = await p.client.from('consentimentos').select('*');
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
    expect(data![0]).toMatchObject({
      user_id: p.id,
      tipo: 'telemedicina',
      versao_termos: TERMS_VERSION,
    });
    expect(Date.parse((data![0] as { aceito_em: string }).aceito_em)).toBeGreaterThanOrEqual(
      before - 5_000,
    );
  });

  it('is not recorded without the checkbox, nor for terms the server does not know', async () => {
    for (const consent of [null, '1999-01-01']) {
      const p = await signUpPatient(consent ? 3 : 2, consent);
      const { data } = await p.client.from('consentimentos').select('*');
      expect(data).toEqual([]);
    }
  });

  it('is read by its owner only, and changed by nobody through the API', async () => {
    const owner = await signUpPatient(4);
    const other = await signUpPatient(5);
    const { rows } = await t.platform.ctx.db.query<{ id: string }>(
      'select id from public.consentimentos where user_id = $1',
      [owner.id],
    );
    const id = rows[0]!.id;
    await appointment(t.platform.ctx.db, owner.id, slot(1));

    expect((await other.client.from('consentimentos').select('*').eq('id', id)).data).toEqual([]);
    expect((await doctorClient.from('consentimentos').select('*').eq('id', id)).data).toEqual([]);
    expect((await t.client().from('consentimentos').select('*')).error).not.toBeNull();

    for (const client of [owner.client, doctorClient, other.client]) {
      const update = await client
        .from('consentimentos')
        .update({ versao_termos: '2000-01-01' })
        .eq('id', id);
      expect(update.error?.code).toBe('42501');
      const remove = await client.from('consentimentos').delete().eq('id', id);
      expect(remove.error?.code).toBe('42501');
      const insert = await client
        .from('consentimentos')
        .insert({ user_id: owner.id, tipo: 'telemedicina', versao_termos: '2026-01-01' });
      expect(insert.error?.code).toBe('42501');
    }
    const after = await t.platform.ctx.db.query(
      'select versao_termos from public.consentimentos where user_id = $1',
      [owner.id],
    );
    expect(after.rows).toEqual([{ versao_termos: TERMS_VERSION }]);
  });
});

describe('Baixar meus dados', () => {
  it("holds the patient's profile, appointments and consents, and nothing of other patients", async () => {
    const db = t.platform.ctx.db;
    const me = await signUpPatient(6);
    const someone = await signUpPatient(7);
    const mine = await appointment(db, me.id, slot(3));
    const theirs = await appointment(db, someone.id, slot(5));

    const { data, error } = (await me.client.rpc('exportar_meus_dados')) as {
      data: unknown;
      error: unknown;
    };
    expect(error).toBeNull();
    const exported = data as {
      perfil: { nome_completo: string; cpf: string; email: string };
      consentimentos: { versao_termos: string }[];
      agendamentos: { id: string; medico: string }[];
    };
    expect(exported.perfil).toMatchObject({ nome_completo: 'Paciente Lgpd 6', email: me.email });
    expect(exported.consentimentos.map((c) => c.versao_termos)).toEqual([TERMS_VERSION]);
    expect(exported.agendamentos.map((a) => a.id)).toEqual([mine]);
    expect(exported.agendamentos[0]!.medico).toBe('Dra. Lgpd');
    const text = JSON.stringify(exported);
    for (const foreign of [someone.id, someone.email, theirs, 'Paciente Lgpd 7', cpfFor(107)]) {
      expect(text).not.toContain(foreign);
    }
  });

  it('answers nobody without a session', async () => {
    const { error } = await t.client().rpc('exportar_meus_dados');
    expect(error).not.toBeNull();
  });
});

describe('Excluir minha conta', () => {
  it('removes the account, frees future slots and keeps past appointments anonymised', async () => {
    const db = t.platform.ctx.db;
    const me = await signUpPatient(8);
    const past = await appointment(
      db,
      me.id,
      new Date(Date.now() - 86_400_000).toISOString(),
      'atendido',
    );
    const future = await appointment(db, me.id, slot(7));
    await db.query(
      `insert into public.guias (agendamento_id, patient_id, medico_id, protocolo, qr_text,
         paciente_snapshot, medico_snapshot, servico_snapshot)
       values ($1, $2, $3, $4, 'qr', $5, '{}', '{}')`,
      [
        past,
        me.id,
        doctor.medicoId,
        `SJ-${past.slice(0, 8)}`,
        JSON.stringify({ nome: 'Paciente Lgpd 8', cpf: cpfFor(108) }),
      ],
    );

    // A doctor cannot delete a patient's account through it.
    expect((await doctorClient.rpc('excluir_minha_conta')).error?.message).toMatch(/Acesso negado/);

    const { data, error } = (await me.client.rpc('excluir_minha_conta')) as {
      data: unknown;
      error: unknown;
    };
    expect(error).toBeNull();
    expect(data).toEqual([{ success: true, message: 'Sua conta foi excluída.' }]);

    const signIn = await t
      .client()
      .auth.signInWithPassword({ email: me.email, password: PASSWORD });
    expect(signIn.error).not.toBeNull();
    expect((await db.query('select 1 from auth.users where id = $1', [me.id])).rows).toEqual([]);
    expect(
      (await db.query('select 1 from public.consentimentos where user_id = $1', [me.id])).rows,
    ).toEqual([]);

    const slots = await doctorClient
      .from('agenda_ocupada')
      .select('id, _deleted')
      .in('id', [past, future]);
    expect(
      Object.fromEntries(slots.data!.map((s) => [s.id as string, s._deleted as boolean])),
    ).toEqual({
      [past]: false,
      [future]: true,
    });

    const kept = await doctorClient
      .from('agendamentos')
      .select('id, status')
      .eq('patient_id', me.id);
    expect(Object.fromEntries(kept.data!.map((a) => [a.id as string, a.status as string]))).toEqual(
      {
        [past]: 'atendido',
        [future]: 'cancelado',
      },
    );
    const profile = await doctorClient.from('perfis_usuarios').select('*').eq('id', me.id).single();
    expect(profile.data).toMatchObject({
      full_name: 'Paciente removido',
      email: null,
      cpf: null,
      data_nasc: null,
      whatsapp: null,
    });
    const guide = await doctorClient
      .from('guias')
      .select('paciente_snapshot')
      .eq('agendamento_id', past)
      .single();
    expect(JSON.stringify(guide.data)).not.toContain(cpfFor(108));
    expect(JSON.stringify(guide.data)).not.toContain('Paciente Lgpd 8');
  });

  it('deletes the profile too when no appointment needs it', async () => {
    const me = await signUpPatient(9);
    expect((await me.client.rpc('excluir_minha_conta')).error).toBeNull();
    expect(
      (await t.platform.ctx.db.query('select 1 from public.perfis_usuarios where id = $1', [me.id]))
        .rows,
    ).toEqual([]);
  });
});
