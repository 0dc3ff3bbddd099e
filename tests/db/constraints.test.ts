import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import type { Database } from '../../supabase/local/db/index.ts';
import {
  SERVICE,
  ZONE,
  as,
  cpfFor,
  createAuthUser,
  createDoctor,
  createPatient,
  migratedDatabase,
  rejection,
  user,
  type DoctorFixture,
  type TestDatabase,
} from './support.ts';

let t: TestDatabase;
let db: Database;
let doctor: DoctorFixture;

beforeAll(async () => {
  t = await migratedDatabase();
  db = t.db;
  doctor = await createDoctor(db, { name: 'Doutora Regras' });
});

afterAll(() => t.dispose());

async function profile(id: string) {
  const { rows } = await db.query<{
    role: string;
    cpf: string | null;
    full_name: string;
    email: string;
  }>('select role, cpf, full_name, email from public.perfis_usuarios where id = $1', [id]);
  return rows[0];
}

/** The São Paulo date `years` years ago, plus `days`. */
function birthDate(years: number, days = 0): string {
  return Temporal.Now.plainDateISO(ZONE).subtract({ years }).add({ days }).toString();
}

describe('profile created on sign-up', () => {
  it('copies the sign-up metadata and stores the CPF as digits', async () => {
    const cpf = cpfFor(10);
    const masked = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
    const id = await createAuthUser(db, {
      email: 'maria@test.example',
      userMeta: {
        full_name: ' Maria Souza ',
        cpf: masked,
        data_nasc: '1985-02-01',
        whatsapp: '11 9',
      },
    });
    expect(await profile(id)).toEqual({
      role: 'paciente',
      cpf,
      full_name: 'Maria Souza',
      email: 'maria@test.example',
    });
  });

  it('makes a paciente whatever role the user metadata claims', async () => {
    const id = await createAuthUser(db, {
      userMeta: { full_name: 'Falso Médico', role: 'medico' },
    });
    expect((await profile(id))?.role).toBe('paciente');
  });

  it('makes a medico only from app_metadata (service role)', async () => {
    const id = await createAuthUser(db, { appMeta: { role: 'medico' } });
    expect((await profile(id))?.role).toBe('medico');
  });

  it('follows a role granted later through app_metadata, and e-mail changes', async () => {
    const id = await createAuthUser(db, {});
    await db.query(
      `update auth.users set raw_app_meta_data = raw_app_meta_data || '{"role":"medico"}',
         email = 'novo@test.example' where id = $1`,
      [id],
    );
    expect(await profile(id)).toMatchObject({ role: 'medico', email: 'novo@test.example' });
  });

  it.each([
    ['a CPF with wrong check digits', { cpf: '12345678900' }, 'CPF inválido.'],
    ['a repeated-digit CPF', { cpf: '111.111.111-11' }, 'CPF inválido.'],
    [
      'someone under 18 in São Paulo',
      { data_nasc: birthDate(18, 1) },
      'Você deve ter no mínimo 18 anos.',
    ],
    ['a malformed birth date', { data_nasc: '10/05/1990' }, 'Data de nascimento inválida.'],
  ])('refuses %s', async (_label, meta, message) => {
    const e = await rejection(createAuthUser(db, { userMeta: { full_name: 'X', ...meta } }));
    expect(e.message).toBe(message);
  });

  it('accepts someone who turns 18 today in São Paulo', async () => {
    const id = await createAuthUser(db, {
      userMeta: { full_name: 'Aniversariante', data_nasc: birthDate(18) },
    });
    expect(await profile(id)).toBeTruthy();
  });

  it('refuses a CPF already registered', async () => {
    await createAuthUser(db, { userMeta: { cpf: cpfFor(20) } });
    const e = await rejection(createAuthUser(db, { userMeta: { cpf: cpfFor(20) } }));
    expect(e).toMatchObject({ code: '23505', message: 'CPF já cadastrado.' });
  });
});

describe('profile updates', () => {
  it('lets a patient change name, WhatsApp and birth date', async () => {
    const id = await createPatient(db, 30);
    await as(db, user(id), (tx) =>
      tx.query(
        `update public.perfis_usuarios set full_name = 'Novo Nome', whatsapp = '(21) 99999-0000',
           data_nasc = '1970-01-01' where id = $1`,
        [id],
      ),
    );
    expect((await profile(id))?.full_name).toBe('Novo Nome');
  });

  it('never changes a CPF, not even through the service role', async () => {
    const id = await createPatient(db, 31);
    for (const actor of [user(id), SERVICE]) {
      const e = await rejection(
        as(db, actor, (tx) =>
          tx.query('update public.perfis_usuarios set cpf = $2 where id = $1', [id, cpfFor(32)]),
        ),
      );
      expect(e).toMatchObject({ code: '42501', message: 'O CPF não pode ser alterado.' });
    }
  });

  it('accepts the same CPF sent back unchanged (full-document sync)', async () => {
    const id = await createPatient(db, 33);
    const cpf = cpfFor(33);
    const masked = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
    await as(db, user(id), (tx) =>
      tx.query(`update public.perfis_usuarios set cpf = $2, full_name = 'Mesmo' where id = $1`, [
        id,
        masked,
      ]),
    );
    expect(await profile(id)).toMatchObject({ cpf, full_name: 'Mesmo' });
  });

  it('lets a user without a CPF set a valid one once', async () => {
    const id = await createAuthUser(db, { userMeta: { full_name: 'Sem CPF' } });
    await as(db, user(id), (tx) =>
      tx.query('update public.perfis_usuarios set cpf = $2 where id = $1', [id, cpfFor(34)]),
    );
    expect((await profile(id))?.cpf).toBe(cpfFor(34));
  });

  it.each([
    ['role', `role = 'medico'`, 41],
    ['email', `email = 'outro@test.example'`, 42],
    ['_deleted', '_deleted = true', 43],
  ] as const)('refuses a patient changing %s', async (_col, set, n) => {
    const id = await createPatient(db, n);
    const e = await rejection(
      as(db, user(id), (tx) =>
        tx.query(`update public.perfis_usuarios set ${set} where id = $1`, [id]),
      ),
    );
    expect(e).toMatchObject({
      code: '42501',
      message: 'Este campo do perfil não pode ser alterado.',
    });
  });

  it('refuses an underage birth date on update', async () => {
    const id = await createPatient(db, 50);
    const e = await rejection(
      as(db, user(id), (tx) =>
        tx.query('update public.perfis_usuarios set data_nasc = $2 where id = $1', [
          id,
          birthDate(17),
        ]),
      ),
    );
    expect(e.message).toBe('Você deve ter no mínimo 18 anos.');
  });
});

describe('medicos', () => {
  const insertDoctor = (cols: Record<string, unknown>) => {
    const base = { name: 'N', public_name: 'Dr. N', specialty: 'S', crm: '1', uf: 'SP', ...cols };
    const keys = Object.keys(base);
    return db.query(
      `insert into public.medicos (${keys.join(', ')}) values (${keys.map((_, i) => `$${i + 1}`).join(', ')})`,
      Object.values(base),
    );
  };

  it.each([
    ['uf of three letters', { uf: 'SPX' }],
    ['lower-case uf', { uf: 'sp' }],
    ['a negative price', { price_in_cents: -1 }],
    ['a blank public name', { public_name: '  ' }],
  ])('refuses %s', async (_label, cols) => {
    expect((await rejection(insertDoctor(cols))).code).toBe('23514');
  });

  it('derives consulta_preco from the cents, whatever the client sends', async () => {
    await as(db, user(doctor.userId), (tx) =>
      tx.query(
        'update public.medicos set price_in_cents = 13050, consulta_preco = 1 where id = $1',
        [doctor.medicoId],
      ),
    );
    const { rows } = await db.query<{ consulta_preco: string }>(
      'select consulta_preco from public.medicos where id = $1',
      [doctor.medicoId],
    );
    expect(rows[0]!.consulta_preco).toBe('130.50');
  });

  it('refuses a price with a third decimal instead of rounding it', async () => {
    const e = await rejection(
      as(db, user(doctor.userId), (tx) =>
        tx.query('update public.medicos set consulta_preco = 130.555 where id = $1', [
          doctor.medicoId,
        ]),
      ),
    );
    expect(e).toMatchObject({
      code: '23514',
      message: 'O preço aceita no máximo duas casas decimais (ex.: 130,50).',
      hint: 'price_precision',
    });
  });

  it('refuses a fraction of a cent', async () => {
    const e = await rejection(
      as(db, user(doctor.userId), (tx) =>
        tx.query(
          `update public.medicos set price_in_cents = (($2::jsonb) ->> 'cents')::integer
            where id = $1`,
          [doctor.medicoId, JSON.stringify({ cents: 13055.5 })],
        ),
      ),
    );
    expect(e.code).toBe('22P02');
  });

  it.each([['is_public = false'], ['is_active = false'], ['user_id = null'], ['_deleted = true']])(
    'refuses a doctor setting %s on their own row',
    async (set) => {
      const e = await rejection(
        as(db, user(doctor.userId), (tx) =>
          tx.query(`update public.medicos set ${set} where id = $1`, [doctor.medicoId]),
        ),
      );
      expect(e).toMatchObject({
        code: '42501',
        message: 'Este campo do perfil do médico não pode ser alterado.',
      });
    },
  );
});

describe('agenda_medico', () => {
  const block = (dia: number, inicio: string, fim: string, intervalo = 15) =>
    as(db, user(doctor.userId), (tx) =>
      tx.query(
        `insert into public.agenda_medico (medico_id, dia_semana, hora_inicio, hora_fim, intervalo_em_minutos)
         values ($1, $2, $3, $4, $5) returning id`,
        [doctor.medicoId, dia, inicio, fim, intervalo],
      ),
    );

  beforeAll(async () => {
    await db.query('delete from public.agenda_medico where medico_id = $1', [doctor.medicoId]);
  });

  it.each([5, 10, 15, 20, 30, 60])('accepts a %i-minute interval', async (interval) => {
    const start = `${String(interval % 24).padStart(2, '0')}:00`;
    const rows = await block(
      2,
      start,
      `${String((interval % 24) + 0).padStart(2, '0')}:30`,
      interval,
    );
    expect(rows.rowCount).toBe(1);
  });

  it.each([0, 7, 25, 45, 90])('refuses a %i-minute interval', async (interval) => {
    expect((await rejection(block(3, '08:00', '09:00', interval))).code).toBe('23514');
  });

  it('refuses an end not after the start', async () => {
    const e = await rejection(block(3, '10:00', '10:00'));
    expect(e).toMatchObject({ code: '23514', constraint: 'agenda_medico_fim_depois_inicio' });
  });

  it('refuses a weekday outside 0..6', async () => {
    expect((await rejection(block(7, '08:00', '09:00'))).code).toBe('23514');
  });

  it('refuses overlapping blocks on one weekday, accepts touching ones and other days', async () => {
    await block(4, '08:00', '12:00');
    const e = await rejection(block(4, '11:00', '13:00'));
    expect(e).toMatchObject({ code: '23P01', constraint: 'agenda_medico_sem_sobreposicao' });
    await expect(block(4, '12:00', '16:00')).resolves.toBeTruthy();
    await expect(block(5, '11:00', '13:00')).resolves.toBeTruthy();
  });

  it('lets a soft-deleted block stop counting', async () => {
    const { rows } = await block(6, '08:00', '12:00');
    const id = (rows[0] as { id: string }).id;
    await as(db, user(doctor.userId), (tx) =>
      tx.query('update public.agenda_medico set _deleted = true where id = $1', [id]),
    );
    await expect(block(6, '09:00', '10:00')).resolves.toBeTruthy();
  });

  it('moves _modified and updated_at on every write', async () => {
    const { rows } = await block(0, '08:00', '09:00');
    const id = (rows[0] as { id: string }).id;
    const read = async () =>
      (
        await db.query<{ m: string; u: string }>(
          'select _modified::text as m, updated_at::text as u from public.agenda_medico where id = $1',
          [id],
        )
      ).rows[0]!;
    const before = await read();
    await as(db, user(doctor.userId), (tx) =>
      tx.query(
        `update public.agenda_medico set hora_fim = '09:30', _modified = '2000-01-01' where id = $1`,
        [id],
      ),
    );
    const after = await read();
    expect(after.m > before.m).toBe(true);
    expect(after.u >= before.u).toBe(true);
  });
});

describe('agendamentos', () => {
  it.each([
    ['status', `status = 'aprovado'`],
    ['pagamento_status', `pagamento_status = 'estornado'`],
    ['meeting_link', `meeting_link = 'http://x.example'`],
  ])('refuses an unknown %s', async (_label, set) => {
    const patient = await createPatient(db, 60 + set.length);
    const { rows } = await db.query<{ id: string }>(
      `insert into public.servicos (nome) values ('Teleconsulta') on conflict (nome) do update set nome = excluded.nome
       returning id`,
    );
    const { rows: created } = await db.query<{ id: string }>(
      `insert into public.agendamentos (patient_id, medico_id, servico_id, appointment_date, appointment_time,
         horario_inicio, horario_fim, price_in_cents)
       values ($1, $2, $3, '2030-01-0${(set.length % 9) + 1}', '10:00', '2030-01-0${(set.length % 9) + 1} 13:00Z',
         '2030-01-0${(set.length % 9) + 1} 13:30Z', 0) returning id`,
      [patient, doctor.medicoId, rows[0]!.id],
    );
    const e = await rejection(
      db.query(`update public.agendamentos set ${set} where id = $1`, [created[0]!.id]),
    );
    expect(e.code).toBe('23514');
  });
});
