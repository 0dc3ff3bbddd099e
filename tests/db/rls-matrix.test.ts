import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';
import { Inbox, channelName, subscribed, type Change } from '../platform/realtime-support.ts';
import { cpfFor, slot } from './support.ts';

/**
 * docs/product-rules.md §6 as a matrix, through the real HTTP API with supabase-js: every table × every kind of
 * caller × select/insert/update/delete, against the written table of expected outcomes below.
 *
 * select → the fixture rows the caller sees (by label), or 'denied' (42501);
 * insert/update/delete → 'ok' (one row written), 'none' (RLS hid the row: 0 rows) or 'denied'.
 */
const ACTORS = ['visitor', 'patientA', 'patientB', 'doctorX', 'doctorY', 'service'] as const;
type ActorName = (typeof ACTORS)[number];
type Write = 'ok' | 'none' | 'denied';
type Row = Record<ActorName, string[] | 'denied'>;
type WriteRow = Record<ActorName, Write>;

const all = <T>(value: T): Record<ActorName, T> =>
  Object.fromEntries(ACTORS.map((a) => [a, value])) as Record<ActorName, T>;
const onlyService: WriteRow = { ...all<Write>('denied'), service: 'ok' };

const TABLES = [
  'servicos',
  'medicos',
  'perfis_usuarios',
  'agenda_medico',
  'agendamentos',
  'guias',
  'agenda_ocupada',
  'doctor_applications',
] as const;
type Table = (typeof TABLES)[number];

// Fixtures: patients A and B; doctor X (public, patient A booked with X, guide gA); doctor Y
// (hidden after patient B booked with Y); service 'tele' and 'sv'; application 'app'.
const EXPECTED: Record<
  Table,
  { select: Row; insert: WriteRow; update: WriteRow; delete: WriteRow }
> = {
  servicos: {
    select: all(['sv', 'tele']),
    insert: onlyService,
    update: onlyService,
    delete: onlyService,
  },
  medicos: {
    select: {
      visitor: ['X'],
      patientA: ['X'],
      patientB: ['X', 'Y'],
      doctorX: ['X'],
      doctorY: ['X', 'Y'],
      service: ['X', 'Y'],
    },
    insert: onlyService,
    // target: doctor X's row
    update: {
      visitor: 'denied',
      patientA: 'none',
      patientB: 'none',
      doctorX: 'ok',
      doctorY: 'none',
      service: 'ok',
    },
    delete: onlyService,
  },
  perfis_usuarios: {
    select: {
      visitor: [],
      patientA: ['pA'],
      patientB: ['pB'],
      doctorX: ['pA', 'pX'],
      doctorY: ['pB', 'pY'],
      service: ['pA', 'pB', 'pX', 'pY'],
    },
    insert: onlyService,
    // target: patient A's profile
    update: {
      visitor: 'denied',
      patientA: 'ok',
      patientB: 'none',
      doctorX: 'none',
      doctorY: 'none',
      service: 'ok',
    },
    delete: onlyService,
  },
  agenda_medico: {
    select: {
      visitor: ['bX'],
      patientA: ['bX'],
      patientB: ['bX'],
      doctorX: ['bX'],
      doctorY: ['bX', 'bY'],
      service: ['bX', 'bY'],
    },
    // target: a block of doctor X
    insert: {
      visitor: 'denied',
      patientA: 'denied',
      patientB: 'denied',
      doctorX: 'ok',
      doctorY: 'denied',
      service: 'ok',
    },
    update: {
      visitor: 'denied',
      patientA: 'none',
      patientB: 'none',
      doctorX: 'ok',
      doctorY: 'none',
      service: 'ok',
    },
    delete: {
      visitor: 'denied',
      patientA: 'none',
      patientB: 'none',
      doctorX: 'ok',
      doctorY: 'none',
      service: 'ok',
    },
  },
  agendamentos: {
    select: {
      visitor: [],
      patientA: ['apA'],
      patientB: ['apB'],
      doctorX: ['apA'],
      doctorY: ['apB'],
      service: ['apA', 'apB'],
    },
    insert: onlyService,
    update: onlyService,
    delete: onlyService,
  },
  guias: {
    select: {
      visitor: [],
      patientA: ['gA'],
      patientB: [],
      doctorX: ['gA'],
      doctorY: [],
      service: ['gA'],
    },
    insert: onlyService,
    update: onlyService,
    delete: onlyService,
  },
  agenda_ocupada: {
    select: all(['apA', 'apB']),
    insert: onlyService,
    update: onlyService,
    delete: onlyService,
  },
  doctor_applications: {
    select: { ...all<string[] | 'denied'>('denied'), service: ['app'] },
    insert: onlyService,
    update: onlyService,
    delete: onlyService,
  },
};

let t: TestPlatform;
let admin: SupabaseClient;
const clients = {} as Record<ActorName, SupabaseClient>;
const ids: Record<string, string> = {};
let counter = 0;

/** The data of a successful supabase-js call; a failed fixture call fails the suite loudly. */
async function must<R extends { error: unknown }>(
  p: PromiseLike<R>,
): Promise<NonNullable<Extract<R, { error: null }> extends { data: infer D } ? D : never>> {
  const r = await p;
  if (r.error) throw new Error(JSON.stringify(r.error));
  return (
    r as unknown as {
      data: NonNullable<Extract<R, { error: null }> extends { data: infer D } ? D : never>;
    }
  ).data;
}

async function signedIn(email: string, password: string): Promise<SupabaseClient> {
  const c = t.client();
  await must(c.auth.signInWithPassword({ email, password }));
  return c;
}

async function createUser(label: string, opts: { doctor?: boolean; n: number }): Promise<string> {
  const email = `user-${randomUUID()}@test.example`;
  const { user } = await must(
    admin.auth.admin.createUser({
      email,
      password: 'senha-segura-123',
      email_confirm: true,
      user_metadata: { full_name: label, cpf: cpfFor(5000 + opts.n), data_nasc: '1980-01-01' },
      ...(opts.doctor ? { app_metadata: { role: 'medico' } } : {}),
    }),
  );
  ids[`email:${label}`] = email;
  return user.id;
}

/** A far-future appointment of patient A with doctor X written as the server. */
async function serverAppointment(): Promise<string> {
  counter += 1;
  const start = new Date(Date.UTC(2031, 0, 1, 0, 0) + counter * 3600_000);
  const row = await must(
    admin
      .from('agendamentos')
      .insert({
        patient_id: ids.pA,
        medico_id: ids.X,
        servico_id: ids.tele,
        appointment_date: start.toISOString().slice(0, 10),
        appointment_time: '10:00',
        horario_inicio: start.toISOString(),
        horario_fim: new Date(start.getTime() + 1800_000).toISOString(),
        price_in_cents: 0,
      })
      .select('id')
      .single<{ id: string }>(),
  );
  return row.id;
}

const guidePayload = (agendamentoId: string) => ({
  agendamento_id: agendamentoId,
  patient_id: ids.pA,
  medico_id: ids.X,
  protocolo: `T-${randomUUID()}`,
  qr_text: 'x',
  paciente_snapshot: {},
  medico_snapshot: {},
  servico_snapshot: {},
});

/** A block of doctor X before 06:00 on Sunday, distinct per call so none overlaps another. */
let blockCounter = 0;
function xBlock() {
  blockCounter += 1;
  const start = blockCounter * 10;
  const hhmm = (m: number) =>
    `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return {
    medico_id: ids.X,
    dia_semana: 0,
    hora_inicio: hhmm(start),
    hora_fim: hhmm(start + 5),
    intervalo_em_minutos: 5,
  };
}

/** What each actor tries to insert; the service's rows need server-side preparation. */
const INSERTS: Record<Table, (actor: ActorName) => Promise<Record<string, unknown>>> = {
  servicos: () => Promise.resolve({ nome: `Serviço ${++counter}` }),
  medicos: () =>
    Promise.resolve({
      name: 'Novo',
      public_name: 'Dr. Novo',
      specialty: 'Pediatria',
      crm: '9',
      uf: 'MG',
    }),
  perfis_usuarios: async (actor) => {
    if (actor !== 'service') return { id: randomUUID(), role: 'paciente', full_name: 'Intruso' };
    const id = await createUser(`Sem Perfil ${++counter}`, { n: 100 + counter });
    await must(admin.from('perfis_usuarios').delete().eq('id', id));
    return { id, full_name: 'Recriado' };
  },
  agenda_medico: () => Promise.resolve(xBlock()),
  agendamentos: () => {
    counter += 1;
    const start = new Date(Date.UTC(2032, 0, 1) + counter * 3600_000);
    return Promise.resolve({
      patient_id: ids.pA,
      medico_id: ids.X,
      servico_id: ids.tele,
      appointment_date: '2032-01-01',
      appointment_time: '10:00',
      horario_inicio: start.toISOString(),
      horario_fim: new Date(start.getTime() + 1800_000).toISOString(),
      price_in_cents: 0,
    });
  },
  guias: async (actor) => guidePayload(actor === 'service' ? await serverAppointment() : ids.apB!),
  agenda_ocupada: async (actor) => {
    const id = actor === 'service' ? await serverAppointment() : randomUUID();
    if (actor === 'service') await must(admin.from('agenda_ocupada').delete().eq('id', id));
    counter += 1;
    return {
      id,
      medico_id: ids.X,
      horario_inicio: '2033-01-01T10:00:00Z',
      horario_fim: '2033-01-01T10:30:00Z',
      status: 'confirmado',
    };
  },
  doctor_applications: () =>
    Promise.resolve({
      full_name: 'Dra. Candidata',
      email: 'c@test.example',
      crm: '77',
      uf: 'BA',
      specialty: 'Dermatologia',
    }),
};

/** The fixture row each table's update targets, and a harmless change. */
const UPDATES: Record<Table, () => [string, Record<string, unknown>]> = {
  servicos: () => [ids.sv!, { nome: `Serviço Fixo ${++counter}` }],
  medicos: () => [ids.X!, { bio: `Bio ${++counter}` }],
  perfis_usuarios: () => [ids.pA!, { full_name: 'PacienteA' }],
  agenda_medico: () => [ids.bX!, { intervalo_em_minutos: 30 }],
  agendamentos: () => [ids.apA!, { source: 'site' }],
  guias: () => [ids.gA!, { pdf_url: null }],
  agenda_ocupada: () => [ids.apA!, { status: 'confirmado' }],
  doctor_applications: () => [ids.app!, { message: `Nota ${++counter}` }],
};

/** A fresh row per delete attempt, so a successful delete never changes another cell. */
const VICTIMS: Record<Table, () => Promise<string>> = {
  servicos: async () =>
    (
      await must(
        admin
          .from('servicos')
          .insert({ nome: `Vítima ${++counter}` })
          .select('id')
          .single<{ id: string }>(),
      )
    ).id,
  medicos: async () =>
    (
      await must(
        admin
          .from('medicos')
          .insert({
            name: 'V',
            public_name: 'Dr. V',
            specialty: 'S',
            crm: '1',
            uf: 'SP',
            is_public: true,
          })
          .select('id')
          .single<{ id: string }>(),
      )
    ).id,
  perfis_usuarios: () => createUser(`Vítima ${++counter}`, { n: 200 + counter }),
  agenda_medico: async () =>
    (await must(admin.from('agenda_medico').insert(xBlock()).select('id').single<{ id: string }>()))
      .id,
  agendamentos: serverAppointment,
  guias: async () =>
    (
      await must(
        admin
          .from('guias')
          .insert(guidePayload(await serverAppointment()))
          .select('id')
          .single<{ id: string }>(),
      )
    ).id,
  agenda_ocupada: serverAppointment,
  doctor_applications: async () =>
    (
      await must(
        admin
          .from('doctor_applications')
          .insert({ full_name: 'V', email: 'v@test.example', crm: '1', uf: 'SP', specialty: 'S' })
          .select('id')
          .single<{ id: string }>(),
      )
    ).id,
};

function outcome(res: { data: unknown; error: { code?: string } | null }): Write {
  if (res.error) {
    if (res.error.code === '42501') return 'denied';
    throw new Error(`unexpected error ${JSON.stringify(res.error)}`);
  }
  return Array.isArray(res.data) && res.data.length === 1 ? 'ok' : 'none';
}

beforeAll(async () => {
  t = await startTestPlatform();
  admin = t.admin;
  ids.tele = (
    await must(
      admin.from('servicos').insert({ nome: 'Teleconsulta' }).select('id').single<{ id: string }>(),
    )
  ).id;
  ids.sv = (
    await must(
      admin.from('servicos').insert({ nome: 'Serviço Fixo' }).select('id').single<{ id: string }>(),
    )
  ).id;
  ids.pA = await createUser('PacienteA', { n: 1 });
  ids.pB = await createUser('PacienteB', { n: 2 });
  ids.pX = await createUser('DoutorX', { n: 3, doctor: true });
  ids.pY = await createUser('DoutorY', { n: 4, doctor: true });
  for (const [label, user] of [
    ['X', ids.pX],
    ['Y', ids.pY],
  ] as const) {
    const row = await must(
      admin
        .from('medicos')
        .insert({
          user_id: user,
          name: label,
          public_name: `Dr. ${label}`,
          specialty: 'Clínica Geral',
          crm: '1',
          uf: 'SP',
          is_public: true,
        })
        .select('id')
        .single<{ id: string }>(),
    );
    ids[label] = row.id;
    const blocks = await must(
      admin
        .from('agenda_medico')
        .insert(
          [0, 1, 2, 3, 4, 5, 6].map((d) => ({
            medico_id: row.id,
            dia_semana: d,
            hora_inicio: '06:00',
            hora_fim: '22:00',
            intervalo_em_minutos: 30,
          })),
        )
        .select('id, dia_semana')
        .returns<{ id: string; dia_semana: number }[]>(),
    );
    // Label one block per doctor; the others are the same for every actor.
    ids[`b${label}`] = blocks.find((b) => b.dia_semana === 1)!.id;
    ids[`allBlocks${label}`] = blocks.map((b) => b.id).join(',');
  }
  clients.visitor = t.client();
  clients.service = admin;
  clients.patientA = await signedIn(ids['email:PacienteA']!, 'senha-segura-123');
  clients.patientB = await signedIn(ids['email:PacienteB']!, 'senha-segura-123');
  clients.doctorX = await signedIn(ids['email:DoutorX']!, 'senha-segura-123');
  clients.doctorY = await signedIn(ids['email:DoutorY']!, 'senha-segura-123');

  const book = async (c: SupabaseClient, medico: string) =>
    (
      await must(
        c
          .rpc('paciente_agendar', {
            p_medico_id: medico,
            p_horario_inicio: slot(0),
            p_mutation_id: randomUUID(),
          })
          .single<{ id: string }>(),
      )
    ).id;
  ids.apA = await book(clients.patientA, ids.X!);
  ids.apB = await book(clients.patientB, ids.Y!);
  ids.gA = (
    await must(
      clients.patientA
        .rpc('paciente_gerar_guia', { p_agendamento_id: ids.apA })
        .single<{ id: string }>(),
    )
  ).id;
  await must(admin.from('medicos').update({ is_public: false }).eq('id', ids.Y!));
  ids.app = (
    await must(
      admin
        .from('doctor_applications')
        .insert({
          full_name: 'Dr. Z',
          email: 'z@test.example',
          crm: '5',
          uf: 'PR',
          specialty: 'Ortopedia',
        })
        .select('id')
        .single<{ id: string }>(),
    )
  ).id;
}, 120_000);

afterAll(() => t.stop());

/** Fixture labels of the ids a select returned (rows created by other cells are ignored). */
function labels(rows: { id: string }[]): string[] {
  const byId = new Map<string, string>();
  for (const [label, id] of Object.entries(ids)) {
    if (label.startsWith('allBlocks'))
      for (const b of id.split(',')) byId.set(b, `b${label.slice(-1)}`);
  }
  for (const [label, id] of Object.entries(ids))
    if (!label.includes(':') && !label.startsWith('allBlocks')) byId.set(id, label);
  return [
    ...new Set(rows.map((r) => byId.get(r.id)).filter((l): l is string => l !== undefined)),
  ].sort();
}

describe.each(TABLES)('RLS matrix: %s', (table) => {
  it.each(ACTORS)('select as %s', async (actor) => {
    const res = await clients[actor].from(table).select('id');
    const expected = EXPECTED[table].select[actor];
    if (expected === 'denied') {
      expect(res.error?.code).toBe('42501');
    } else {
      expect(res.error).toBeNull();
      expect(labels(res.data as { id: string }[])).toEqual([...expected].sort());
    }
  });

  it.each(ACTORS)('insert as %s', async (actor) => {
    const res = await clients[actor]
      .from(table)
      .insert(await INSERTS[table](actor))
      .select('id');
    expect(outcome(res)).toBe(EXPECTED[table].insert[actor]);
  });

  it.each(ACTORS)('update as %s', async (actor) => {
    const [id, patch] = UPDATES[table]();
    const res = await clients[actor].from(table).update(patch).eq('id', id).select('id');
    expect(outcome(res)).toBe(EXPECTED[table].update[actor]);
  });

  it.each(ACTORS)('delete as %s', async (actor) => {
    const id = await VICTIMS[table]();
    const res = await clients[actor].from(table).delete().eq('id', id).select('id');
    expect(outcome(res)).toBe(EXPECTED[table].delete[actor]);
    const left = await admin.from(table).select('id').eq('id', id);
    expect(left.data).toHaveLength(EXPECTED[table].delete[actor] === 'ok' ? 0 : 1);
  });
});

describe('realtime respects the same rules', () => {
  it("never delivers another patient's appointment to a patient", async () => {
    const inbox = new Inbox<Change>();
    const channel = clients.patientA
      .channel(channelName('appointments'))
      .on('postgres_changes', { event: '*', schema: 'public', table: 'agendamentos' }, inbox.push);
    await subscribed(channel);

    await must(
      clients.doctorY.rpc('medico_salvar_link', {
        p_agendamento_id: ids.apB,
        p_link: 'https://meet.example.com/b',
      }),
    );
    await must(
      clients.doctorX.rpc('medico_salvar_link', {
        p_agendamento_id: ids.apA,
        p_link: 'https://meet.example.com/a',
      }),
    );

    const own = await inbox.next((c) => c.new.id === ids.apA, "patient A's update");
    expect(own.new.meeting_link).toBe('https://meet.example.com/a');
    expect(inbox.items.filter((c) => c.new.id === ids.apB || c.old.id === ids.apB)).toEqual([]);
    await clients.patientA.removeChannel(channel);
  });
});

describe('avatars storage', () => {
  const png = () =>
    new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], {
      type: 'image/png',
    });
  const upload = (actor: ActorName, path: string, upsert = false) =>
    clients[actor].storage
      .from('avatars')
      .upload(path, png(), { contentType: 'image/png', upsert });

  it('lets a user write only under their own folder', async () => {
    expect((await upload('doctorX', `${ids.pX}/foto.png`)).error).toBeNull();
    expect((await upload('doctorY', `${ids.pY}/foto.png`)).error).toBeNull();
    expect((await upload('doctorX', `${ids.pY}/intruso.png`)).error).not.toBeNull();
    expect((await upload('doctorX', `${ids.pY}/foto.png`, true)).error).not.toBeNull();
    expect((await upload('patientA', `${ids.pX}/intruso.png`)).error).not.toBeNull();
    expect((await upload('visitor', `${ids.pX}/anon.png`)).error).not.toBeNull();
  });

  it("does not let a user delete someone else's file, and everyone can read avatars", async () => {
    const removed = await clients.doctorX.storage.from('avatars').remove([`${ids.pY}/foto.png`]);
    expect(removed.data ?? []).toEqual([]);
    const read = await clients.visitor.storage.from('avatars').download(`${ids.pY}/foto.png`);
    expect(read.error).toBeNull();
  });

  it('refuses files that are not images', async () => {
    const res = await clients.doctorX.storage
      .from('avatars')
      .upload(`${ids.pX}/notas.txt`, new Blob(['texto'], { type: 'text/plain' }), {
        contentType: 'text/plain',
      });
    expect(res.error).not.toBeNull();
  });
});
