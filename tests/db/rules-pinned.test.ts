import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../supabase/local/db/index.ts';
import {
  APPOINTMENT_STATUSES,
  BOOKED_STATUSES,
  INTERVAL_OPTIONS,
  MIN_NOTICE_MINUTES,
  PAYMENT_STATUSES,
  SCHEDULE_ZONE,
  SLOT_DURATION_MINUTES,
} from '../../src/domain/rules/booking.ts';
import { TERMS_VERSION } from '../../src/domain/rules/consent.ts';
import { migratedDatabase, type TestDatabase } from './support.ts';

/**
 * src/domain/rules/booking.ts is the one place the app and sync/ read the booking rules from;
 * the database has its own copy in SQL. These tests read the database's definitions (as
 * PostgreSQL prints them back) and fail when either side changes alone.
 */
let t: TestDatabase;
let db: Database;

beforeAll(async () => {
  t = await migratedDatabase();
  db = t.db;
});

afterAll(() => t.dispose());

/** The quoted strings or numbers inside the first `IN (...)`/`ANY (ARRAY[...])` of a definition. */
function listIn(definition: string): string[] {
  const list = /(?:=\s*ANY\s*\(\s*(?:\()?ARRAY\[|\bIN\s*\()([^\])]*)/i.exec(definition)?.[1];
  if (!list) throw new Error(`no list in: ${definition}`);
  return [...list.matchAll(/'([^']*)'|(-?\d+)/g)].map((m) => m[1] ?? m[2] ?? '');
}

async function checkConstraint(table: string, column: string): Promise<string> {
  const { rows } = await db.query<{ def: string }>(
    `select pg_get_constraintdef(c.oid) as def
       from pg_constraint c
      where c.conrelid = $1::regclass and c.contype = 'c'`,
    [`public.${table}`],
  );
  const onColumn = new RegExp(`\\(${column} = ANY`);
  const checks = rows.filter((r) => onColumn.test(r.def));
  if (checks.length !== 1) throw new Error(`expected one list check on ${table}.${column}`);
  return checks[0]!.def;
}

async function functionBody(name: string, schema = 'public'): Promise<string> {
  const { rows } = await db.query<{ def: string }>(
    `select pg_get_functiondef(p.oid) as def
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = $2 and p.proname = $1`,
    [name, schema],
  );
  if (rows.length === 0) throw new Error(`no function ${schema}.${name}`);
  return rows.map((r) => r.def).join('\n');
}

describe('the booking rules are the same in TypeScript and in SQL', () => {
  it('appointment and payment statuses match the table checks', async () => {
    expect(listIn(await checkConstraint('agendamentos', 'status'))).toEqual([
      ...APPOINTMENT_STATUSES,
    ]);
    expect(listIn(await checkConstraint('agendamentos', 'pagamento_status'))).toEqual([
      ...PAYMENT_STATUSES,
    ]);
  });

  it('the statuses that hold a slot match the one-booking-per-slot index', async () => {
    const { rows } = await db.query<{ def: string }>(
      `select indexdef as def from pg_indexes
        where schemaname = 'public' and tablename = 'agendamentos'
          and indexdef ilike 'create unique index%' and indexdef ilike '%medico_id%horario_inicio%'`,
    );
    expect(rows).toHaveLength(1);
    expect(listIn(rows[0]!.def).sort()).toEqual([...BOOKED_STATUSES].sort());
  });

  it('the statuses that hold a slot match the public projection of booked slots', async () => {
    const body = await functionBody('project_agenda_ocupada', 'app_private');
    expect(listIn(body).sort()).toEqual([...BOOKED_STATUSES].sort());
  });

  it('the interval options match the availability check', async () => {
    const values = listIn(await checkConstraint('agenda_medico', 'intervalo_em_minutos'));
    expect(values.map(Number)).toEqual([...INTERVAL_OPTIONS]);
  });

  it('booking applies the same zone, notice and slot length', async () => {
    const body = await functionBody('paciente_agendar');
    expect(body).toContain(`'${SCHEDULE_ZONE}'`);
    expect(body).toMatch(new RegExp(`interval '${MIN_NOTICE_MINUTES} minutes'`));
    expect(body).toMatch(new RegExp(`interval '${SLOT_DURATION_MINUTES} minutes'`));
  });
});

describe('the telemedicine terms version is the same in TypeScript and in SQL', () => {
  it('app_private.current_terms_version() is TERMS_VERSION', async () => {
    const { rows } = await db.query<{ v: string }>(
      'select app_private.current_terms_version() as v',
    );
    expect(rows[0]!.v).toBe(TERMS_VERSION);
  });
});
