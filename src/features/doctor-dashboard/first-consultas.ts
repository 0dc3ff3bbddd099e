import { useEffect, useState } from 'react';
import type { Session } from '@supabase/supabase-js';
import * as v from 'valibot';
import { DOCTOR_UPCOMING } from '@/domain/appointments/lists.ts';
import { APPOINTMENTS_PER_PAGE } from '@/domain/appointments/pagination.ts';
import { holdFirstPaint } from '@/lib/first-paint.ts';
import { restEndpointOf } from '@/lib/rest-endpoint.ts';
import { readRest, type RestEndpoint } from '@/lib/rest-read.ts';
import { useAuth } from '@/session/auth-context.ts';
import { useProvidedSupabase } from '@/session/client-context.ts';
import type { MedicoDoc } from '../../../sync/index.ts';
import { firstReadDoctor, firstReadViews } from '../../../sync/light.ts';
import { hasReplica } from '../../../sync/presence.ts';
import { doctorLists, type Indexed } from './doctor-lists.ts';

/**
 * The doctor's first consultas on a device that holds no replica of them: the first page of
 * 'Próximas' and both tabs' counts, read straight from the REST API with the doctor's access
 * token (RLS decides the rows, as it does for the replica). It paints the dashboard before the
 * replica engine (RxDB, rxjs, supabase-js: most of the app's JavaScript) is even requested;
 * the replica takes over once its first sync is in (appointments-tab.tsx). Cards stay
 * read-only until then: actions are queued in the replica. Nothing is lost by reading around
 * it: a device without the replica has no queue.
 */
export type FirstConsultas =
  /** The replica's path, as before: it holds the list, or this device cannot read first. */
  | { kind: 'replica' }
  | { kind: 'reading' }
  | {
      kind: 'ready';
      doctor: MedicoDoc;
      /** 'Próximas' page 1, soonest first, as the replica would list it. */
      upcoming: Indexed[];
      upcomingCount: number;
      historyCount: number;
    };

export type FirstConsultasReady = Extract<FirstConsultas, { kind: 'ready' }>;

const REPLICA: FirstConsultas = { kind: 'replica' };

/** A token this close to its end could expire on the way; the replica's path refreshes it. */
const TOKEN_MARGIN_SECONDS = 60;

/**
 * How long the page waits for the first read before the replica takes over: a request can
 * hang well past a network error on a connection that answers nothing.
 */
export const FIRST_CONSULTAS_PATIENCE_MS = 4000;

/** What the choice depends on, given by the page (and by tests). */
export type FirstReadFacts = {
  session: Session | null;
  online: boolean;
  nowEpochMs: number;
  hasReplica: (userId: string) => Promise<boolean>;
};

/**
 * Whether the dashboard reads its first consultas over REST: only online, with a stored token
 * that is still valid, on a device holding no replica of this person. Offline, with an
 * expired token, or with a replica, the page takes the replica's path exactly as before (an
 * expired token is refreshed there, never signed out).
 */
export async function readsFirst(facts: FirstReadFacts): Promise<boolean> {
  const { session } = facts;
  if (!session || !facts.online || session.expires_at === undefined) return false;
  if (session.expires_at - TOKEN_MARGIN_SECONDS <= facts.nowEpochMs / 1000) return false;
  return !(await facts.hasReplica(session.user.id));
}

const Rows = v.array(v.looseObject({ id: v.string() }));
const AppointmentRows = v.array(
  v.looseObject({
    id: v.string(),
    horario_inicio: v.string(),
    patient_id: v.nullable(v.string()),
    guia_id: v.nullable(v.string()),
  }),
);

const NOT_DELETED = { _deleted: 'eq.false' };

/** The rows, or an error naming the table when their shape is not the expected one. */
function rowsOf<T extends v.GenericSchema>(
  schema: T,
  table: string,
  body: unknown,
): v.InferOutput<T> {
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) throw new Error(`${table}: unexpected rows`);
  return parsed.output;
}

/** `in.(a,b)` for PostgREST. */
const within = (values: readonly string[]) => `in.(${values.join(',')})`;

/**
 * The first read: the doctor's record, 'Próximas' page 1 with its count (the domain's rule,
 * DOCTOR_UPCOMING, asked of the server) and the count of all appointments, then the patients
 * and guides of that page. Null when the account has no doctor record: the replica's path
 * tells 'Perfil não encontrado'. Rejects on any failed or malformed answer.
 */
export async function readFirstConsultas(
  endpoint: RestEndpoint,
  session: Session,
): Promise<FirstConsultasReady | null> {
  const token = session.access_token;
  const [doctorsRead, upcomingRead, allRead] = await Promise.all([
    readRest(
      endpoint,
      'medicos',
      { select: '*', user_id: `eq.${session.user.id}`, ...NOT_DELETED },
      { token },
    ),
    readRest(
      endpoint,
      'agendamentos',
      {
        select: '*',
        ...NOT_DELETED,
        status: within(DOCTOR_UPCOMING.statuses),
        or: `(pagamento_status.is.null,pagamento_status.neq.${DOCTOR_UPCOMING.paymentNot})`,
        order: 'horario_inicio.asc',
        limit: String(APPOINTMENTS_PER_PAGE),
      },
      { token, count: true },
    ),
    readRest(
      endpoint,
      'agendamentos',
      { select: 'id', ...NOT_DELETED, limit: '1' },
      { token, count: true },
    ),
  ]);
  const doctors = rowsOf(Rows, 'medicos', doctorsRead.body);
  const appointments = rowsOf(AppointmentRows, 'agendamentos', upcomingRead.body);
  if (upcomingRead.total === null || allRead.total === null) {
    throw new Error('agendamentos: no count');
  }
  const doctor = doctors[0];
  if (!doctor) return null;

  const ids = appointments.map((a) => a.id);
  const patientIds = [...new Set(appointments.flatMap((a) => a.patient_id ?? []))];
  const guideIds = appointments.flatMap((a) => a.guia_id ?? []);
  const guidesOf = [
    `agendamento_id.${within(ids)}`,
    ...(guideIds.length ? [`id.${within(guideIds)}`] : []),
  ];
  const [people, guides] = await Promise.all([
    patientIds.length === 0
      ? []
      : readRest(
          endpoint,
          'perfis_usuarios',
          { select: '*', id: within(patientIds), ...NOT_DELETED },
          { token },
        ).then((read) => rowsOf(Rows, 'perfis_usuarios', read.body)),
    ids.length === 0
      ? []
      : readRest(
          endpoint,
          'guias',
          { select: '*', or: `(${guidesOf.join(',')})`, ...NOT_DELETED },
          { token },
        ).then((read) => rowsOf(Rows, 'guias', read.body)),
  ]);
  const views = firstReadViews({ appointments, doctors, people, guides });
  return {
    kind: 'ready',
    doctor: firstReadDoctor(doctor),
    upcoming: doctorLists(views).upcoming,
    upcomingCount: upcomingRead.total,
    historyCount: allRead.total - upcomingRead.total,
  };
}

function isOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine;
}

/**
 * The first consultas for the page's first mount when `wanted` (the consultas section is
 * open), decided once: 'reading' holds the first paint (and with it the replica engine,
 * src/session/sync-provider.tsx) until the list is on screen. Any failure, or an answer slower
 * than the patience, is the replica's path, as if the first read had never been tried.
 */
export function useFirstConsultas(wanted: boolean): FirstConsultas {
  const { session } = useAuth();
  const provided = useProvidedSupabase();
  const [endpoint] = useState(() => restEndpointOf(provided));
  const [state, setState] = useState<FirstConsultas>(() =>
    wanted && session && isOnline() ? { kind: 'reading' } : REPLICA,
  );
  const [start] = useState(() => session);
  const reading = state.kind === 'reading';
  useEffect(() => {
    if (!reading || !start) return;
    const release = holdFirstPaint();
    let active = true;
    const settle = (next: FirstConsultas | null) => {
      if (!active) return;
      active = false;
      clearTimeout(timer);
      setState(next ?? REPLICA);
    };
    const timer = setTimeout(() => settle(REPLICA), FIRST_CONSULTAS_PATIENCE_MS);
    readsFirst({ session: start, online: isOnline(), nowEpochMs: Date.now(), hasReplica })
      .then((first) => (first ? readFirstConsultas(endpoint, start) : REPLICA))
      .then(settle, () => settle(REPLICA));
    return () => {
      active = false;
      clearTimeout(timer);
      // Released once the settled state is committed: the list is in the DOM by then.
      release();
    };
  }, [reading, start, endpoint]);
  return state;
}
