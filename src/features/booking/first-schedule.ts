import { useEffect, useState } from 'react';
import { Temporal } from 'temporal-polyfill';
import * as v from 'valibot';
import type { WeeklyBlock } from '@/domain/availability/block.ts';
import type { HeldSlot } from '@/domain/availability/booked.ts';
import { BOOKED_STATUSES, SLOT_DURATION_MINUTES } from '@/domain/rules/booking.ts';
import { env } from '@/lib/config.ts';
import type { AppSupabaseClient } from '@/lib/supabase.ts';
import { useProvidedSupabase } from '@/session/client-context.ts';
import type { MedicoDoc } from '../../../sync/index.ts';

/**
 * The booking page's first response: the public doctors, their weekly blocks and the taken
 * future slots, read straight from the REST API. It paints the page before the replica engine
 * (RxDB and the sync code, most of the app's JavaScript) has even been downloaded; the replica
 * takes over once its first sync is done (booking-page.tsx). The reads are plain `fetch` calls
 * with the public key, so supabase-js is not needed for that paint either: it is public data,
 * and an anonymous read never waits on a token refresh.
 */
export type FirstSchedule =
  | { kind: 'loading' }
  | { kind: 'failed' }
  | {
      kind: 'ready';
      doctors: MedicoDoc[];
      blocks: ReadonlyMap<string, WeeklyBlock[]>;
      taken: ReadonlyMap<string, HeldSlot[]>;
    };

const Text = v.nullable(v.string());
const Id = v.pipe(v.string(), v.uuid());

/** The replica's `medicos` row (sync/schemas.ts), as far as the anon role reads it. */
const DoctorRow = v.object({
  id: Id,
  user_id: v.nullish(v.string(), null),
  name: Text,
  public_name: Text,
  specialty: Text,
  crm: Text,
  uf: Text,
  bio: Text,
  price_in_cents: v.nullable(v.pipe(v.number(), v.integer())),
  consulta_preco: v.nullish(v.number(), null),
  image_url: Text,
  doctoralia_reviews_url: Text,
  pix_chave: v.nullish(v.string(), null),
  pix_cidade: v.nullish(v.string(), null),
  is_public: v.nullable(v.boolean()),
  is_active: v.nullable(v.boolean()),
  created_at: Text,
});
const BlockRow = v.object({
  medico_id: Id,
  dia_semana: v.pipe(v.number(), v.integer()),
  hora_inicio: v.string(),
  hora_fim: v.string(),
  intervalo_em_minutos: v.pipe(v.number(), v.integer()),
});
const TakenRow = v.object({
  medico_id: Id,
  horario_inicio: v.string(),
  horario_fim: Text,
  status: Text,
});

const DOCTOR_COLUMNS = Object.keys(DoctorRow.entries).join(',');
const BLOCK_COLUMNS = Object.keys(BlockRow.entries).join(',');
const TAKEN_COLUMNS = Object.keys(TakenRow.entries).join(',');
const BOOKED: readonly string[] = BOOKED_STATUSES;

function groupBy<T extends { medico_id: string }, U>(rows: T[], pick: (row: T) => U) {
  const groups = new Map<string, U[]>();
  for (const row of rows) {
    const group = groups.get(row.medico_id) ?? [];
    group.push(pick(row));
    groups.set(row.medico_id, group);
  }
  return groups;
}

/** Where the REST API is and the public key it takes (PostgREST behind `rest/v1`). */
export type RestEndpoint = { url: string; key: string };

/** Rows of `table` matching PostgREST `query`; rejects on an error answer. */
async function readRows(
  endpoint: RestEndpoint,
  table: string,
  query: Record<string, string>,
): Promise<unknown> {
  const base = endpoint.url.endsWith('/') ? endpoint.url : `${endpoint.url}/`;
  const url = new URL(`rest/v1/${table}?${new URLSearchParams(query).toString()}`, base);
  const response = await fetch(url, {
    headers: { apikey: endpoint.key, Authorization: `Bearer ${endpoint.key}` },
  });
  if (!response.ok) throw new Error(`${table}: HTTP ${response.status}`);
  return response.json();
}

/**
 * The three reads in parallel, each validated; any failure (offline, an error answer, a row of
 * an unexpected shape) makes the whole response 'failed' and the page falls back to the replica.
 */
export async function readFirstSchedule(
  endpoint: RestEndpoint,
  now: Temporal.Instant,
): Promise<FirstSchedule> {
  // A booking that started up to one slot ago may still overlap the first bookable start.
  const from = now.subtract({ minutes: SLOT_DURATION_MINUTES }).toString();
  const settled = await Promise.all([
    readRows(endpoint, 'medicos', {
      select: DOCTOR_COLUMNS,
      is_public: 'eq.true',
      is_active: 'eq.true',
      _deleted: 'eq.false',
      order: 'created_at.asc',
    }),
    readRows(endpoint, 'agenda_medico', { select: BLOCK_COLUMNS, _deleted: 'eq.false' }),
    readRows(endpoint, 'agenda_ocupada', {
      select: TAKEN_COLUMNS,
      _deleted: 'eq.false',
      horario_inicio: `gte.${from}`,
    }),
  ]).catch(() => null);
  if (!settled) return { kind: 'failed' };
  const [doctors, blocks, taken] = settled;
  const doctorRows = v.safeParse(v.array(DoctorRow), doctors);
  const blockRows = v.safeParse(v.array(BlockRow), blocks);
  const takenRows = v.safeParse(v.array(TakenRow), taken);
  if (!doctorRows.success || !blockRows.success || !takenRows.success) return { kind: 'failed' };
  return {
    kind: 'ready',
    doctors: doctorRows.output.map((row) => ({ ...row, server_modified: null })),
    blocks: groupBy(
      [...blockRows.output].sort(
        (a, b) => a.dia_semana - b.dia_semana || a.hora_inicio.localeCompare(b.hora_inicio),
      ),
      ({ dia_semana, hora_inicio, hora_fim, intervalo_em_minutos }) => ({
        dia_semana,
        hora_inicio,
        hora_fim,
        intervalo_em_minutos,
      }),
    ),
    taken: groupBy(
      takenRows.output.filter((row) => BOOKED.includes(row.status ?? 'confirmado')),
      ({ horario_inicio, horario_fim }) => ({ horario_inicio, horario_fim }),
    ),
  };
}

/**
 * How long the page waits for the first response before the replica takes over: a request can
 * hang well past a network error on a connection that answers nothing.
 */
export const FIRST_SCHEDULE_PATIENCE_MS = 4000;

/**
 * The app's endpoint, or a test's: a client given in context (a platform instance of its own)
 * names its URL and key in supabase-js's protected `supabaseUrl`/`supabaseKey`.
 */
function endpointOf(client: AppSupabaseClient | null): RestEndpoint {
  if (!client) return { url: env.supabaseUrl, key: env.supabaseAnonKey };
  const named = client as unknown as { supabaseUrl: string; supabaseKey: string };
  return { url: named.supabaseUrl, key: named.supabaseKey };
}

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && !navigator.onLine;
}

/**
 * The first response, read once when `wanted` (not when the replica is already there). Offline
 * it is 'failed' at once, and a response slower than the patience counts as failed, so a phone
 * without a connection goes straight to the schedule it kept.
 */
export function useFirstSchedule(wanted: boolean): FirstSchedule {
  const provided = useProvidedSupabase();
  const [endpoint] = useState(() => endpointOf(provided));
  const [state, setState] = useState<FirstSchedule>(() =>
    wanted && isOffline() ? { kind: 'failed' } : { kind: 'loading' },
  );
  const skip = !wanted || state.kind === 'failed';
  useEffect(() => {
    if (skip) return;
    let active = true;
    const settle = (result: FirstSchedule) => {
      if (!active) return;
      active = false;
      clearTimeout(timer);
      setState(result);
    };
    const timer = setTimeout(() => settle({ kind: 'failed' }), FIRST_SCHEDULE_PATIENCE_MS);
    readFirstSchedule(endpoint, Temporal.Now.instant()).then(settle, () =>
      settle({ kind: 'failed' }),
    );
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [endpoint, skip]);
  return state;
}
