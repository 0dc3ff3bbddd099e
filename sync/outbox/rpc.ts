import type { SupabaseClient } from '@supabase/supabase-js';
import { isTransient, refusalOf, toFailure } from '../errors.ts';
import type { ServerRow } from '../row.ts';
import { replicationDeadline, sendAs, type Session } from '../session.ts';
import type { Mutation, Rejection } from './types.ts';

export type RpcOutcome =
  | {
      kind: 'applied';
      /** The appointment as the server now has it (returned by the RPC, or read after it). */
      appointment: ServerRow | null;
      guide: ServerRow | null;
      /** The server's own words for a flag-returning RPC (cancel: 'Agendamento cancelado…'). */
      message: string | null;
    }
  | { kind: 'rejected'; rejection: Rejection }
  | { kind: 'transient'; error: string };

type Call = {
  fn: string;
  params: Record<string, unknown>;
  returns: 'appointment' | 'guide' | 'flag';
};

/** The RPC of each mutation (data contract), with `p_mutation_id` for idempotent replays (O2). */
function callFor(m: Mutation, appointmentId: string): Call {
  const target = { p_agendamento_id: appointmentId, p_mutation_id: m.id };
  switch (m.kind) {
    case 'book':
      return {
        fn: 'paciente_agendar',
        params: {
          p_medico_id: m.args.medicoId,
          p_horario_inicio: m.args.horarioInicio,
          p_mutation_id: m.id,
        },
        returns: 'appointment',
      };
    case 'generate_guide':
      return { fn: 'paciente_gerar_guia', params: target, returns: 'guide' };
    case 'confirm_payment':
      return { fn: 'medico_confirmar_pagamento', params: target, returns: 'appointment' };
    case 'check_in':
      return { fn: 'medico_confirmar_atendimento', params: target, returns: 'flag' };
    case 'cancel':
      return { fn: 'medico_excluir_agendamento', params: target, returns: 'flag' };
    case 'patient_cancel':
      return { fn: 'paciente_cancelar_agendamento', params: target, returns: 'flag' };
    case 'save_meeting_link':
      return {
        fn: 'medico_salvar_link',
        params: { ...target, p_link: m.args.link },
        returns: 'appointment',
      };
    case 'room_event':
      return {
        fn: 'registrar_evento_sala',
        params: { ...target, p_evento: m.args.evento },
        returns: 'appointment',
      };
  }
}

/** A composite result arrives as an object; a `returns table` one as an array of rows. */
function firstRow(data: unknown): ServerRow | null {
  const row: unknown = Array.isArray(data) ? data[0] : data;
  return row && typeof row === 'object' ? (row as ServerRow) : null;
}

/** What an RPC answered besides its flag: the appointment as the action left it, if given. */
function rowIn(value: unknown): ServerRow | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as ServerRow) : null;
}

/**
 * Reads the appointment an applied RPC changed, for the RPCs that do not return it (the
 * guide's, and the flag RPCs of a server older than 20261127170000). Undefined when the read
 * failed: the action must then stay queued, or the replica would keep the old row while the
 * queue no longer lays the action over it (O6); its replay answers without acting twice (O2).
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
  const call = callFor(m, appointmentId);
  const { error, status, ...result } = await sendAs(session, client.rpc(call.fn, call.params));
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
  const row = firstRow(result.data as unknown);
  switch (call.returns) {
    case 'appointment':
      return { kind: 'applied', appointment: row, guide: null, message: null };
    case 'guide': {
      const appointment = await readAppointment(client, session, appointmentId);
      if (appointment === undefined) return UNREAD;
      return { kind: 'applied', appointment, guide: row, message: null };
    }
    case 'flag': {
      if (row?.success === false) {
        return {
          kind: 'rejected',
          rejection: {
            reason: 'rejected',
            message: typeof row.message === 'string' ? row.message : '',
          },
        };
      }
      const appointment =
        rowIn(row?.agendamento) ?? (await readAppointment(client, session, appointmentId));
      if (appointment === undefined) return UNREAD;
      return {
        kind: 'applied',
        appointment,
        guide: null,
        message: typeof row?.message === 'string' ? row.message : null,
      };
    }
  }
}
