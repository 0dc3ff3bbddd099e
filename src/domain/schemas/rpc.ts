import * as v from 'valibot';
import { httpsUrlField, instantField, uuidField } from './fields.ts';

/** Same wording as medico_salvar_link, so client and server refuse a link alike. */
export const MEETING_LINK_INVALID = 'Informe um link válido começando com https://.';

/**
 * Argument objects of the RPCs in the data contract, exactly as sent to `rpc(name, args)`.
 * Outbox mutations carry a client-generated p_mutation_id so a replay is idempotent.
 */
export const pacienteAgendarArgsSchema = v.object({
  p_medico_id: uuidField,
  p_horario_inicio: instantField,
  p_mutation_id: uuidField,
});
export type PacienteAgendarArgs = v.InferOutput<typeof pacienteAgendarArgsSchema>;

export const pacienteGerarGuiaArgsSchema = v.object({
  p_agendamento_id: uuidField,
  p_mutation_id: uuidField,
});
export type PacienteGerarGuiaArgs = v.InferOutput<typeof pacienteGerarGuiaArgsSchema>;

const doctorActionEntries = {
  p_agendamento_id: uuidField,
  p_mutation_id: v.nullish(uuidField, null),
};

export const medicoConfirmarPagamentoArgsSchema = v.object(doctorActionEntries);
export type MedicoConfirmarPagamentoArgs = v.InferOutput<typeof medicoConfirmarPagamentoArgsSchema>;

export const medicoConfirmarAtendimentoArgsSchema = v.object(doctorActionEntries);
export type MedicoConfirmarAtendimentoArgs = v.InferOutput<
  typeof medicoConfirmarAtendimentoArgsSchema
>;

export const medicoExcluirAgendamentoArgsSchema = v.object(doctorActionEntries);
export type MedicoExcluirAgendamentoArgs = v.InferOutput<typeof medicoExcluirAgendamentoArgsSchema>;

/** Meeting links are https only (the server refuses anything else). */
export const medicoSalvarLinkArgsSchema = v.object({
  ...doctorActionEntries,
  p_link: httpsUrlField(MEETING_LINK_INVALID),
});
export type MedicoSalvarLinkArgs = v.InferOutput<typeof medicoSalvarLinkArgsSchema>;

/**
 * `returns table(success boolean, message text)` arrives as an array of rows; the first row is
 * the outcome (spec §7).
 */
export const rpcOutcomeSchema = v.pipe(
  v.array(v.object({ success: v.boolean(), message: v.nullish(v.string(), '') })),
  v.minLength(1),
  v.transform((rows) => rows[0] as { success: boolean; message: string }),
);
export type RpcOutcome = v.InferOutput<typeof rpcOutcomeSchema>;
