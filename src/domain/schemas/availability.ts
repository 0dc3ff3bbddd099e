import * as v from 'valibot';
import { INTERVAL_OPTIONS } from '../schedule/editor.ts';
import { wallTimeMinutes } from '../time/wall-time.ts';
import { storageTimeField } from './fields.ts';

export const AVAILABILITY_MESSAGES = {
  invalidWeekday: 'Dia da semana inválido.',
  invalidInterval: 'Intervalo inválido.',
  invalidStatus: 'Situação inválida.',
  endNotAfterStart: 'Fim > Início',
} as const;

function minute(value: string): number {
  return wallTimeMinutes(value) ?? Number.NaN;
}

/** An agenda_medico row's editable columns as stored ('HH:mm:ss', São Paulo wall clock). */
export const availabilityBlockSchema = v.pipe(
  v.object({
    dia_semana: v.pipe(
      v.number(AVAILABILITY_MESSAGES.invalidWeekday),
      v.integer(AVAILABILITY_MESSAGES.invalidWeekday),
      v.minValue(0, AVAILABILITY_MESSAGES.invalidWeekday),
      v.maxValue(6, AVAILABILITY_MESSAGES.invalidWeekday),
    ),
    hora_inicio: storageTimeField,
    hora_fim: storageTimeField,
    intervalo_em_minutos: v.picklist(INTERVAL_OPTIONS, AVAILABILITY_MESSAGES.invalidInterval),
    status: v.optional(v.literal('disponivel', AVAILABILITY_MESSAGES.invalidStatus), 'disponivel'),
  }),
  v.forward(
    v.partialCheck(
      [['hora_inicio'], ['hora_fim']],
      (block) => minute(block.hora_fim) > minute(block.hora_inicio),
      AVAILABILITY_MESSAGES.endNotAfterStart,
    ),
    ['hora_fim'],
  ),
);
export type AvailabilityBlock = v.InferOutput<typeof availabilityBlockSchema>;
