import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { bootstrap } from '../../supabase/local/bootstrap/index.ts';
import type { Database, Queryable } from '../../supabase/local/db/index.ts';
import { createLogger } from '../../supabase/local/log.ts';
import { runAs } from '../../supabase/local/request-auth.ts';
import { freshDatabase } from '../../supabase/local/db/fresh-database.ts';
import { cpfFor } from '../../sync/testing/people.ts';

export const MIGRATIONS_DIR = 'supabase/migrations';
export const SEED_FILE = 'supabase/seed.sql';
export const ZONE = 'America/Sao_Paulo';

export type TestDatabase = { db: Database; dispose(): Promise<void> };

/** A fresh database with the platform schemas and the app's migrations (and optionally the seed). */
export async function migratedDatabase(opts: { seed?: boolean } = {}): Promise<TestDatabase> {
  const fresh = await freshDatabase();
  const db = fresh.db;
  await bootstrap(db, {
    migrationsDir: MIGRATIONS_DIR,
    seedFile: opts.seed ? SEED_FILE : undefined,
    log: createLogger('silent'),
  });
  return { db, dispose: () => fresh.dispose() };
}

/** Who runs a statement, as PostgREST would switch to them. */
export type Actor =
  { kind: 'anon' } | { kind: 'service' } | { kind: 'user'; id: string; email?: string };

export const ANON: Actor = { kind: 'anon' };
export const SERVICE: Actor = { kind: 'service' };
export const user = (id: string): Actor => ({ kind: 'user', id });

function identity(actor: Actor) {
  switch (actor.kind) {
    case 'anon':
      return { role: 'anon', claims: { role: 'anon' } };
    case 'service':
      return { role: 'service_role', claims: { role: 'service_role' } };
    case 'user':
      return { role: 'authenticated', claims: { role: 'authenticated', sub: actor.id } };
  }
}

/** Runs `fn` in one transaction as the actor, with RLS and grants exactly as over the API. */
export function as<T>(db: Database, actor: Actor, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return runAs(db, identity(actor), { method: 'POST', path: '/rest/v1/rpc' }, fn);
}

/** Inserts an auth user the way GoTrue does (plain INSERT), so the profile trigger runs. */
export async function createAuthUser(
  db: Queryable,
  opts: { email?: string; userMeta?: Record<string, unknown>; appMeta?: Record<string, unknown> },
): Promise<string> {
  const id = randomUUID();
  await db.query(
    `insert into auth.users (id, aud, role, email, raw_user_meta_data, raw_app_meta_data,
       email_confirmed_at, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, $3, $4, now(), now(), now())`,
    [
      id,
      opts.email ?? `${id}@test.example`,
      JSON.stringify(opts.userMeta ?? {}),
      JSON.stringify({ provider: 'email', providers: ['email'], ...opts.appMeta }),
    ],
  );
  return id;
}

export { cpfFor };

export async function createPatient(db: Queryable, n: number): Promise<string> {
  return createAuthUser(db, {
    email: `paciente${n}-${randomUUID().slice(0, 8)}@test.example`,
    userMeta: {
      full_name: `Paciente ${n}`,
      cpf: cpfFor(n),
      data_nasc: '1990-05-10',
      whatsapp: '(11) 91234-5678',
    },
  });
}

export type DoctorFixture = { userId: string; medicoId: string };

/** A public, active doctor with a user, available every day from 00:00 to 24:00. */
export async function createDoctor(
  db: Queryable,
  opts: { name: string; price?: number; interval?: number; publicActive?: boolean },
): Promise<DoctorFixture> {
  const userId = await createAuthUser(db, {
    email: `${opts.name.toLowerCase().replace(/\W+/g, '-')}-${randomUUID().slice(0, 8)}@test.example`,
    userMeta: { full_name: opts.name },
    appMeta: { role: 'medico' },
  });
  const visible = opts.publicActive ?? true;
  const { rows } = await db.query<{ id: string }>(
    `insert into public.medicos (user_id, name, public_name, specialty, crm, uf, price_in_cents,
       is_public, is_active)
     values ($1, $2, $2, 'Clínica Geral', '123456', 'SP', $3, $4, $4) returning id`,
    [userId, opts.name, opts.price ?? 15000, visible],
  );
  const medicoId = rows[0]!.id;
  await db.query(
    `insert into public.agenda_medico (medico_id, dia_semana, hora_inicio, hora_fim, intervalo_em_minutos)
     select $1, d, '00:00', '24:00', $2 from generate_series(0, 6) d`,
    [medicoId, opts.interval ?? 30],
  );
  return { userId, medicoId };
}

export async function ensureService(db: Queryable): Promise<void> {
  await db.query(
    `insert into public.servicos (nome) values ('Teleconsulta') on conflict do nothing`,
  );
}

/**
 * The n-th 30-minute slot start from tomorrow 08:00 in São Paulo, as an ISO instant — always
 * more than 20 minutes ahead and on a 30-minute grid.
 */
export function slot(n: number, stepMinutes = 30): string {
  const start = Temporal.Now.zonedDateTimeISO(ZONE)
    .toPlainDate()
    .add({ days: 1 })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from('08:00') });
  return start
    .add({ minutes: n * stepMinutes })
    .toInstant()
    .toString();
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<{
  code?: string;
  message: string;
  hint?: string;
  constraint?: string;
}> {
  try {
    await p;
  } catch (e) {
    return e as { code?: string; message: string; hint?: string };
  }
  throw new Error('expected the call to be rejected');
}
