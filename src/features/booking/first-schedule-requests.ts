import { SLOT_DURATION_MINUTES } from '@/domain/rules/booking.ts';
import { readRest, type RestEndpoint } from '@/lib/rest-read.ts';

/**
 * The three REST reads of the booking page's first response (first-schedule.ts), apart from
 * their validation: this module is also compiled into a script inlined in index.html
 * (src/app/early-reads.ts), so it imports nothing but plain constants and stays a few hundred
 * bytes.
 */

/** The columns read, the anon role's view of the replica's rows; first-schedule.ts validates them. */
export const DOCTOR_COLUMNS = [
  'id',
  'user_id',
  'name',
  'public_name',
  'specialty',
  'crm',
  'uf',
  'bio',
  'price_in_cents',
  'consulta_preco',
  'image_url',
  'doctoralia_reviews_url',
  'pix_chave',
  'pix_cidade',
  'sala_consulta',
  'is_public',
  'is_active',
  'created_at',
] as const;
export const BLOCK_COLUMNS = [
  'medico_id',
  'dia_semana',
  'hora_inicio',
  'hora_fim',
  'intervalo_em_minutos',
] as const;
export const TAKEN_COLUMNS = ['medico_id', 'horario_inicio', 'horario_fim', 'status'] as const;

/**
 * Where the taken slots read starts: a booking that started up to one slot ago may still
 * overlap the first bookable start. Epoch milliseconds rather than Temporal on purpose: this
 * runs before the app (the inlined script, the entry), which does not carry the Temporal
 * polyfill, and an instant minus a fixed number of minutes involves no calendar or zone.
 */
function takenSince(nowEpochMs: number): string {
  return new Date(nowEpochMs - SLOT_DURATION_MINUTES * 60_000).toISOString();
}

/** Rows of `table` matching PostgREST `query`, read with the public key. */
async function readRows(
  endpoint: RestEndpoint,
  table: string,
  query: Record<string, string>,
): Promise<unknown> {
  return (await readRest(endpoint, table, query)).body;
}

/** The public doctors, all weekly blocks and the taken future slots, as the server sent them. */
export type FirstScheduleBodies = [doctors: unknown, blocks: unknown, taken: unknown];

/** The three reads in parallel; rejects when any fails. */
export function requestFirstSchedule(
  endpoint: RestEndpoint,
  nowEpochMs: number,
): Promise<FirstScheduleBodies> {
  return Promise.all([
    readRows(endpoint, 'medicos', {
      select: DOCTOR_COLUMNS.join(','),
      is_public: 'eq.true',
      is_active: 'eq.true',
      _deleted: 'eq.false',
      order: 'created_at.asc',
    }),
    readRows(endpoint, 'agenda_medico', { select: BLOCK_COLUMNS.join(','), _deleted: 'eq.false' }),
    readRows(endpoint, 'agenda_ocupada', {
      select: TAKEN_COLUMNS.join(','),
      _deleted: 'eq.false',
      horario_inicio: `gte.${takenSince(nowEpochMs)}`,
    }),
  ]);
}

/** The reads index.html started before the app loaded, left for the booking page to take. */
export type EarlyReads = {
  endpoint: RestEndpoint;
  /** `performance.now()` when they started. */
  startedAt: number;
  bodies: Promise<FirstScheduleBodies>;
  /** The bodies once they arrived: a page rendered after that shows them in its first render. */
  arrived?: FirstScheduleBodies;
};

/** Starts the reads and leaves them on `window` for the booking page (first-schedule.ts). */
export function startEarlyReads(endpoint: RestEndpoint, nowEpochMs: number): void {
  const bodies = requestFirstSchedule(endpoint, nowEpochMs);
  const reads: EarlyReads = { endpoint, startedAt: performance.now(), bodies };
  // A failure is the page's to handle (it falls back to the replica), not an unhandled rejection.
  bodies.then(
    (arrived) => {
      reads.arrived = arrived;
    },
    () => undefined,
  );
  window.saudeJaEarlyReads = reads;
}

declare global {
  interface Window {
    /** Set by the script inlined in index.html (src/app/early-reads.ts), taken by the app. */
    saudeJaEarlyReads?: EarlyReads;
  }
}
