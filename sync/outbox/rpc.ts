import type { SupabaseClient } from '@supabase/supabase-js';
import * as v from 'valibot';
import { isTransient, refusalOf, toFailure } from '../errors.ts';
import type { ServerRow } from '../row.ts';
import { replicationDeadline, sendAs, type Session } from '../session.ts';
import { actionOf } from './mutations.ts';
import type { Mutation, Rejection } from './types.ts';

export type RpcOutcome =
  | {
      kind: 'applied';
      /** The appointment as the server now has it (in the RPC's answer, or read after it). */
      appointment: ServerRow | null;
      guide: ServerRow | null;
      /** The server's own words, when its answer has them (cancel: 'Agendamento cancelado…'). */
      message: string | null;
    }
  | { kind: 'rejected'; rejection: Rejection }
  | { kind: 'transient'; error: string };

/**
 * Reads the appointment an applied RPC changed, for the one RPC that does not return it (the
 * guide's: `readsAppointment` in mutations.ts). Undefined when the read failed: the action
 * must then stay queued, or the replica would keep the old row while the queue no longer lays
 * the action over it (O6); its replay answers without acting twice (O2).
 */
async function readAppointment(
  client: SupabaseClient,
  session: Session,
  id: string,
): Promise<ServerRow | null | undefined> {
  try {
    const { error, ...result } = await sendAs(
      session,
      client
        .from('agendamentos')
        .select('*')
        .eq('id', id)
        .abortSignal(replicationDeadline())
        .maybeSingle(),
    );
    return error ? undefined : ((result.data as ServerRow | null) ?? null);
  } catch {
    return undefined;
  }
}

/** An applied RPC whose appointment could not be read: sent again later, as a replay. */
const UNREAD: RpcOutcome = {
  kind: 'transient',
  error: 'applied, but the appointment it changed could not be read',
};

/**
 * Sends one mutation and says what happened: applied (with the server rows to put in the
 * replica), rejected by a business rule (O5), or a transient failure to retry (O4).
 */
export async function sendMutation(
  client: SupabaseClient,
  session: Session,
  m: Mutation,
  appointmentId: string,
): Promise<RpcOutcome> {
  const action = actionOf(m.kind);
  const { error, status, ...result } = await sendAs(
    session,
    client.rpc(action.rpc, action.params(m.args, { appointmentId, mutationId: m.id })),
  );
  if (error) {
    const failure = toFailure(error, status);
    if (isTransient(failure)) {
      return { kind: 'transient', error: `${failure.status} ${failure.message}`.trim() };
    }
    return {
      kind: 'rejected',
      rejection: refusalOf(failure),
    };
  }
  // An answer of another shape is a server this client does not know yet: the action stays
  // queued (a replay answers without acting twice, O2) and the status shows why.
  const parsed = v.safeParse(action.answer, result.data);
  if (!parsed.success) {
    return { kind: 'transient', error: `unexpected answer from ${action.rpc}` };
  }
  const answer = parsed.output;
  if (!answer.applied) {
    return { kind: 'rejected', rejection: { reason: 'rejected', message: answer.message } };
  }
  const appointment = action.readsAppointment
    ? await readAppointment(client, session, appointmentId)
    : answer.appointment;
  if (appointment === undefined) return UNREAD;
  return { kind: 'applied', appointment, guide: answer.guide, message: answer.message };
}
