import { useEffect, useState } from 'react';
import * as v from 'valibot';
import type { WeeklyBlock } from '@/domain/availability/block.ts';
import type { HeldSlot } from '@/domain/availability/booked.ts';
import { BOOKED_STATUSES } from '@/domain/rules/booking.ts';
import { doctorRowSchema } from '@/domain/schemas/doctor-row.ts';
import { restEndpointOf } from '@/lib/rest-endpoint.ts';
import type { RestEndpoint } from '@/lib/rest-read.ts';
import { useProvidedSupabase } from '@/session/client-context.ts';
import type { MedicoDoc } from '../../../sync/index.ts';
import {
  DOCTOR_COLUMNS,
  requestFirstSchedule,
  type BLOCK_COLUMNS,
  type FirstScheduleBodies,
  type TAKEN_COLUMNS,
} from './first-schedule-requests.ts';
import { compareIsoText } from '@/domain/time/iso-order.ts';

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

const FAILED: FirstSchedule = { kind: 'failed' };

const Text = v.nullable(v.string());
const Id = v.pipe(v.string(), v.uuid());

/** A schema for each column read (the compiler checks the keys against the requests). */
type RowEntries<Columns extends readonly string[]> = Record<Columns[number], v.GenericSchema>;

/** The replica's `medicos` row, every column of which the request names. */
const DoctorRow = v.pick(doctorRowSchema, DOCTOR_COLUMNS);
const BlockRow = v.object({
  medico_id: Id,
  dia_semana: v.pipe(v.number(), v.integer()),
  hora_inicio: v.string(),
  hora_fim: v.string(),
  intervalo_em_minutos: v.pipe(v.number(), v.integer()),
} satisfies RowEntries<typeof BLOCK_COLUMNS>);
const TakenRow = v.object({
  medico_id: Id,
  horario_inicio: v.string(),
  horario_fim: Text,
  status: Text,
} satisfies RowEntries<typeof TAKEN_COLUMNS>);

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

/**
 * The server's three bodies validated; a row of an unexpected shape makes the whole response
 * 'failed' and the page falls back to the replica.
 */
function parseFirstSchedule([doctors, blocks, taken]: FirstScheduleBodies): FirstSchedule {
  const doctorRows = v.safeParse(v.array(DoctorRow), doctors);
  const blockRows = v.safeParse(v.array(BlockRow), blocks);
  const takenRows = v.safeParse(v.array(TakenRow), taken);
  if (!doctorRows.success || !blockRows.success || !takenRows.success) return FAILED;
  return {
    kind: 'ready',
    doctors: doctorRows.output.map((row) => ({ ...row, server_modified: null })),
    blocks: groupBy(
      [...blockRows.output].sort(
        (a, b) => a.dia_semana - b.dia_semana || compareIsoText(a.hora_inicio, b.hora_inicio),
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

/** The server's answer as the page's first response; a failed read is 'failed'. */
function validated(bodies: Promise<FirstScheduleBodies>): Promise<FirstSchedule> {
  return bodies.then(parseFirstSchedule, () => FAILED);
}

/** The three reads, validated; any failure (offline, an error answer, a bad row) is 'failed'. */
export function readFirstSchedule(
  endpoint: RestEndpoint,
  nowEpochMs: number,
): Promise<FirstSchedule> {
  return validated(requestFirstSchedule(endpoint, nowEpochMs));
}

/**
 * How long the page waits for the first response before the replica takes over: a request can
 * hang well past a network error on a connection that answers nothing.
 */
export const FIRST_SCHEDULE_PATIENCE_MS = 4000;

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && !navigator.onLine;
}

/** The reads index.html started, as the page takes them: `settled` once they have arrived. */
type EarlyResponse = { result: Promise<FirstSchedule>; settled: FirstSchedule | undefined };

/**
 * The reads index.html started before the app loaded (src/app/early-reads.ts), once: for the
 * page's first mount, when they asked the page's endpoint and are recent. A later visit reads
 * again — those reads hold the slots of the moment the app opened.
 */
function takeEarlyReads(endpoint: RestEndpoint): EarlyResponse | null {
  const early = window.saudeJaEarlyReads;
  delete window.saudeJaEarlyReads;
  if (!early) return null;
  const sameEndpoint = early.endpoint.url === endpoint.url && early.endpoint.key === endpoint.key;
  const recent = performance.now() - early.startedAt < FIRST_SCHEDULE_PATIENCE_MS;
  if (!sameEndpoint || !recent) return null;
  // Bodies that have arrived are validated once, here; the others when they arrive.
  const settled = early.arrived && parseFirstSchedule(early.arrived);
  return { result: settled ? Promise.resolve(settled) : validated(early.bodies), settled };
}

/**
 * The first response, read once when `wanted` (not when the replica is already there), or
 * taken from index.html's early reads. Offline it is 'failed' at once, and a response slower than the
 * patience counts as failed, so a phone without a connection goes straight to the schedule it
 * kept.
 */
export function useFirstSchedule(wanted: boolean): FirstSchedule {
  const provided = useProvidedSupabase();
  const [endpoint] = useState(() => restEndpointOf(provided));
  const [early] = useState(() => (wanted ? takeEarlyReads(endpoint) : null));
  const [state, setState] = useState<FirstSchedule>(() => {
    if (!wanted) return { kind: 'loading' };
    return early?.settled ?? (isOffline() ? FAILED : { kind: 'loading' });
  });
  const skip = !wanted || state.kind !== 'loading';
  useEffect(() => {
    if (skip) return;
    let active = true;
    const settle = (result: FirstSchedule) => {
      if (!active) return;
      active = false;
      clearTimeout(timer);
      setState(result);
    };
    const timer = setTimeout(() => settle(FAILED), FIRST_SCHEDULE_PATIENCE_MS);
    // Neither read rejects: a failure is the 'failed' response.
    void (early?.result ?? readFirstSchedule(endpoint, Date.now())).then(settle);
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [endpoint, early, skip]);
  return state;
}
