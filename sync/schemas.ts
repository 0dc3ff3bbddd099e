import type { RxJsonSchema } from 'rxdb';
import type { DoctorRow } from '../src/domain/schemas/doctor-row.ts';

/**
 * RxDB schemas of the replica, one per replicated table (data contract in
 * supabase/migrations/CONTRACT.md). Rules that shape them (docs/replication.md §1.3):
 * - `_modified` may not be a schema field, so the server's `_modified` is kept as
 *   `server_modified`; pushes use it as the version for conditional writes (P3).
 * - Dexie requires every indexed field to be required and non-null; everything else the
 *   server may send as null is declared `['x', 'null']`.
 * - Every index slows each write of the first sync (10,000 appointments for a doctor), so only
 *   what a screen reads without the whole collection has one: a doctor's availability, the
 *   appointments of one day (the hoje list opens from them) and their guides.
 * - RxDB forces `additionalProperties: false`; rows are reduced to these properties before
 *   they are stored (see `row.ts`), so a column added on the server never breaks a pull.
 */

const ID = { type: 'string', maxLength: 36 } as const;
const TEXT = { type: ['string', 'null'] } as const;
const INT = { type: ['integer', 'null'] } as const;
const NUM = { type: ['number', 'null'] } as const;
const BOOL = { type: ['boolean', 'null'] } as const;
/** ISO-8601 instants, normalised to `…Z` so they compare as strings. */
const INSTANT_KEY = { type: 'string', maxLength: 40 } as const;

type Nullable<T> = T | null;

export type ServicoDoc = { id: string; nome: Nullable<string>; server_modified: Nullable<string> };

/** One shape for the doctor's row, shared with the booking page's first read. */
export type MedicoDoc = DoctorRow & { server_modified: Nullable<string> };

export type AgendaMedicoDoc = {
  id: string;
  medico_id: string;
  dia_semana: number;
  hora_inicio: string;
  hora_fim: string;
  intervalo_em_minutos: number;
  status: Nullable<string>;
  created_at: Nullable<string>;
  updated_at: Nullable<string>;
  server_modified: Nullable<string>;
};

export type AgendaOcupadaDoc = {
  id: string;
  medico_id: string;
  horario_inicio: string;
  horario_fim: Nullable<string>;
  status: Nullable<string>;
  server_modified: Nullable<string>;
};

export type PerfilDoc = {
  id: string;
  role: Nullable<string>;
  full_name: Nullable<string>;
  email: Nullable<string>;
  cpf: Nullable<string>;
  data_nasc: Nullable<string>;
  whatsapp: Nullable<string>;
  /** E-mail reminders before each consultation (off: the patient opted out). */
  lembretes_email: Nullable<boolean>;
  server_modified: Nullable<string>;
};

export type AgendamentoDoc = {
  id: string;
  patient_id: Nullable<string>;
  medico_id: string;
  servico_id: Nullable<string>;
  appointment_date: Nullable<string>;
  appointment_time: Nullable<string>;
  horario_inicio: string;
  horario_fim: Nullable<string>;
  price_in_cents: Nullable<number>;
  status: Nullable<string>;
  pagamento_status: Nullable<string>;
  source: Nullable<string>;
  pagamento_confirmado_em: Nullable<string>;
  pagamento_confirmado_por: Nullable<string>;
  meeting_link: Nullable<string>;
  guia_id: Nullable<string>;
  protocolo: Nullable<string>;
  mutation_id: Nullable<string>;
  /** What the consultation room recorded (registrar_evento_sala); instants as `…Z`. */
  sala_paciente_entrou_em: Nullable<string>;
  chamada_iniciada_em: Nullable<string>;
  chamada_encerrada_em: Nullable<string>;
  chamada_duracao_segundos: Nullable<number>;
  chamada_so_audio: Nullable<boolean>;
  created_at: Nullable<string>;
  server_modified: Nullable<string>;
};

export type GuiaDoc = {
  id: string;
  agendamento_id: string;
  protocolo: Nullable<string>;
  pdf_url: Nullable<string>;
  data_emissao: Nullable<string>;
  qr_text: Nullable<string>;
  paciente_snapshot: Nullable<Record<string, unknown>>;
  medico_snapshot: Nullable<Record<string, unknown>>;
  servico_snapshot: Nullable<Record<string, unknown>>;
  server_modified: Nullable<string>;
};

const OBJ = { type: ['object', 'null'], additionalProperties: true } as const;

export const servicosSchema: RxJsonSchema<ServicoDoc> = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: { id: ID, nome: TEXT, server_modified: TEXT },
  required: ['id'],
};

export const medicosSchema: RxJsonSchema<MedicoDoc> = {
  // 1: the PIX key and its city (migration 20261125140000_doctor_pix_key.sql).
  // 2: the consultation room choice (migration 20261127000000_consultation_room.sql).
  version: 2,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: ID,
    user_id: TEXT,
    name: TEXT,
    public_name: TEXT,
    specialty: TEXT,
    crm: TEXT,
    uf: TEXT,
    bio: TEXT,
    price_in_cents: INT,
    consulta_preco: NUM,
    image_url: TEXT,
    doctoralia_reviews_url: TEXT,
    pix_chave: TEXT,
    pix_cidade: TEXT,
    sala_consulta: TEXT,
    is_public: BOOL,
    is_active: BOOL,
    created_at: TEXT,
    server_modified: TEXT,
  },
  required: ['id'],
};

export const agendaMedicoSchema: RxJsonSchema<AgendaMedicoDoc> = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: ID,
    medico_id: ID,
    dia_semana: { type: 'integer', minimum: 0, maximum: 6, multipleOf: 1 },
    hora_inicio: { type: 'string', maxLength: 8 },
    hora_fim: { type: 'string', maxLength: 8 },
    intervalo_em_minutos: { type: 'integer', minimum: 1, maximum: 1440 },
    status: TEXT,
    created_at: TEXT,
    updated_at: TEXT,
    server_modified: TEXT,
  },
  required: ['id', 'medico_id', 'dia_semana', 'hora_inicio', 'hora_fim', 'intervalo_em_minutos'],
  indexes: [['medico_id', 'dia_semana', 'hora_inicio']],
};

export const agendaOcupadaSchema: RxJsonSchema<AgendaOcupadaDoc> = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: ID,
    medico_id: ID,
    horario_inicio: INSTANT_KEY,
    horario_fim: TEXT,
    status: TEXT,
    server_modified: TEXT,
  },
  required: ['id', 'medico_id', 'horario_inicio'],
};

export const perfisSchema: RxJsonSchema<PerfilDoc> = {
  // 1: lembretes_email (the reminder opt-out).
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: ID,
    role: TEXT,
    full_name: TEXT,
    email: TEXT,
    cpf: TEXT,
    data_nasc: TEXT,
    whatsapp: TEXT,
    lembretes_email: BOOL,
    server_modified: TEXT,
  },
  required: ['id'],
};

export const agendamentosSchema: RxJsonSchema<AgendamentoDoc> = {
  // 1: the consultation room's record (migration 20261127000000_consultation_room.sql).
  // 2: the index on horario_inicio (a day's appointments without the whole collection).
  version: 2,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: ID,
    patient_id: TEXT,
    medico_id: ID,
    servico_id: TEXT,
    appointment_date: TEXT,
    appointment_time: TEXT,
    horario_inicio: INSTANT_KEY,
    horario_fim: TEXT,
    price_in_cents: INT,
    status: TEXT,
    pagamento_status: TEXT,
    source: TEXT,
    pagamento_confirmado_em: TEXT,
    pagamento_confirmado_por: TEXT,
    meeting_link: TEXT,
    guia_id: TEXT,
    protocolo: TEXT,
    mutation_id: TEXT,
    sala_paciente_entrou_em: TEXT,
    chamada_iniciada_em: TEXT,
    chamada_encerrada_em: TEXT,
    chamada_duracao_segundos: INT,
    chamada_so_audio: BOOL,
    created_at: TEXT,
    server_modified: TEXT,
  },
  required: ['id', 'medico_id', 'horario_inicio'],
  indexes: ['horario_inicio'],
};

export const guiasSchema: RxJsonSchema<GuiaDoc> = {
  // 1: the index on agendamento_id (the guides of a day's appointments).
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: ID,
    agendamento_id: ID,
    protocolo: TEXT,
    pdf_url: TEXT,
    data_emissao: TEXT,
    qr_text: TEXT,
    paciente_snapshot: OBJ,
    medico_snapshot: OBJ,
    servico_snapshot: OBJ,
    server_modified: TEXT,
  },
  required: ['id', 'agendamento_id'],
  indexes: ['agendamento_id'],
};
