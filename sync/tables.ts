import type { MigrationStrategies, RxJsonSchema } from 'rxdb';
import {
  agendaMedicoSchema,
  agendaOcupadaSchema,
  agendamentosSchema,
  guiasSchema,
  medicosSchema,
  perfisSchema,
  servicosSchema,
} from './schemas.ts';

/** A document of any collection, as the replica stores it (R5: rows become documents in row.ts). */
export type ReplicaDoc = Record<string, unknown> & { id: string; _deleted: boolean };

/** Who the replica belongs to; decides which collections exist (R1, R2). */
export type Role = 'visitor' | 'paciente' | 'medico';

export type TableName =
  | 'servicos'
  | 'medicos'
  | 'agenda_medico'
  | 'agenda_ocupada'
  | 'perfis_usuarios'
  | 'agendamentos'
  | 'guias';

export type TableSpec = {
  /** Collection name in the replica and table name on the server are the same. */
  name: TableName;
  schema: RxJsonSchema<ReplicaDoc>;
  /** Public tables are replicated for everyone; user tables only for a signed-in user. */
  scope: 'public' | 'user';
  /** timestamptz columns, normalised to `…Z` instants so they compare as strings. */
  instants: readonly string[];
  /**
   * Columns a user may write directly (P1). Present only on tables with a direct push; the
   * push sends these and nothing else, so server-managed columns never travel upstream.
   */
  writable?: readonly string[];
  /** Roles whose replica pushes local writes of this table. */
  pushRoles?: readonly Role[];
  /**
   * Schema migrations (R4). The replica is a cache of the server, so a strategy only has to
   * keep old documents readable until the re-pull that follows every schema version bump.
   */
  migrationStrategies: MigrationStrategies;
};

const asSchema = <T>(schema: RxJsonSchema<T>) => schema as unknown as RxJsonSchema<ReplicaDoc>;

export const TABLES: readonly TableSpec[] = [
  {
    name: 'servicos',
    schema: asSchema(servicosSchema),
    scope: 'public',
    instants: [],
    migrationStrategies: {},
  },
  {
    name: 'medicos',
    schema: asSchema(medicosSchema),
    scope: 'public',
    instants: ['created_at'],
    writable: [
      'name',
      'public_name',
      'specialty',
      'crm',
      'uf',
      'bio',
      'price_in_cents',
      'image_url',
      'doctoralia_reviews_url',
      'pix_chave',
      'pix_cidade',
      'sala_consulta',
    ],
    pushRoles: ['medico'],
    // Version 1 adds the PIX columns, version 2 the room choice; the re-pull that follows each
    // bump fills them (R4).
    migrationStrategies: {
      1: (doc: ReplicaDoc) => ({ ...doc, pix_chave: null, pix_cidade: null }),
      2: (doc: ReplicaDoc) => ({ ...doc, sala_consulta: null }),
    },
  },
  {
    name: 'agenda_medico',
    schema: asSchema(agendaMedicoSchema),
    scope: 'public',
    instants: ['created_at', 'updated_at'],
    writable: [
      'id',
      'medico_id',
      'dia_semana',
      'hora_inicio',
      'hora_fim',
      'intervalo_em_minutos',
      'status',
    ],
    pushRoles: ['medico'],
    migrationStrategies: {},
  },
  {
    name: 'agenda_ocupada',
    schema: asSchema(agendaOcupadaSchema),
    scope: 'public',
    instants: ['horario_inicio', 'horario_fim'],
    migrationStrategies: {},
  },
  {
    name: 'perfis_usuarios',
    schema: asSchema(perfisSchema),
    scope: 'user',
    instants: [],
    writable: ['full_name', 'whatsapp', 'data_nasc', 'lembretes_email'],
    pushRoles: ['paciente', 'medico'],
    // The re-pull after the bump fills lembretes_email in.
    migrationStrategies: { 1: (old: ReplicaDoc) => ({ ...old, lembretes_email: null }) },
  },
  {
    name: 'agendamentos',
    schema: asSchema(agendamentosSchema),
    scope: 'user',
    instants: [
      'horario_inicio',
      'horario_fim',
      'pagamento_confirmado_em',
      'sala_paciente_entrou_em',
      'chamada_iniciada_em',
      'chamada_encerrada_em',
      'created_at',
    ],
    // Version 1 adds the consultation room's record; the re-pull after the bump fills it (R4).
    // Version 2 only adds an index: the documents stay as they are.
    migrationStrategies: {
      1: (doc: ReplicaDoc) => ({
        ...doc,
        sala_paciente_entrou_em: null,
        chamada_iniciada_em: null,
        chamada_encerrada_em: null,
        chamada_duracao_segundos: null,
        chamada_so_audio: null,
      }),
      2: (doc: ReplicaDoc) => doc,
    },
  },
  {
    name: 'guias',
    schema: asSchema(guiasSchema),
    scope: 'user',
    instants: ['data_emissao'],
    // Version 1 only adds an index: the documents stay as they are.
    migrationStrategies: { 1: (doc: ReplicaDoc) => doc },
  },
];

/** The tables a role's replica holds: a visitor only the public ones (R2). */
export function tablesFor(role: Role, tables: readonly TableSpec[] = TABLES): readonly TableSpec[] {
  return role === 'visitor' ? tables.filter((t) => t.scope === 'public') : tables;
}

export function pushesFor(spec: TableSpec, role: Role): boolean {
  return spec.pushRoles?.includes(role) ?? false;
}

/**
 * Whether no role ever pushes `collection`: its replication has no upstream, so its IndexedDB
 * store needs only the indexes its schema declares (docs/replication.md §1.1).
 */
export function neverPushed(collection: string, tables: readonly TableSpec[] = TABLES): boolean {
  const spec = tables.find((t) => t.name === collection);
  return spec !== undefined && (spec.pushRoles ?? []).length === 0;
}
