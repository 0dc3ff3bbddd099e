import * as v from 'valibot';
import { INTERVAL_OPTIONS } from '../rules/booking.ts';
import { END_NOT_AFTER_START } from '../schedule/editor.ts';
import { toStorageTime, wallTimeMinutes } from '../time/wall-time.ts';
import { MESSAGES, httpsUrlField, instantField, uuidField } from './fields.ts';

/**
 * What the sync engine accepts from a screen before it queues or stores anything (sync/index.ts,
 * sync/outbox/mutations.ts): the same rules the forms and the database apply, written once here.
 */

/** A booking request: the doctor and the slot's start (an instant, out as ISO UTC). */
export const bookingRequestSchema = v.object({ medicoId: uuidField, horarioInicio: instantField });

/** docs/product-rules.md §5: the consultation's video link. */
export const MEETING_LINK_INVALID = 'Informe um link válido que comece com https://';

/** The consultation's link, as medico_salvar_link accepts it (the form checks the same). */
export const meetingLinkField = httpsUrlField(MEETING_LINK_INVALID);

/** 'HH:mm' or 'HH:mm:ss' ('24:00' ends the day) in, the storage form 'HH:mm:ss' out. */
export const blockTimeField = v.pipe(
  v.string(MESSAGES.invalidTime),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const time = toStorageTime(dataset.value);
    if (!time) {
      addIssue({ message: MESSAGES.invalidTime });
      return NEVER;
    }
    return time;
  }),
);

/** One availability block as the schedule editor saves it; times are São Paulo wall clock. */
export const availabilityBlockSchema = v.pipe(
  v.object({
    id: v.optional(uuidField),
    dia_semana: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(6)),
    hora_inicio: blockTimeField,
    hora_fim: blockTimeField,
    intervalo_em_minutos: v.picklist(INTERVAL_OPTIONS),
  }),
  v.check(
    (block) =>
      (wallTimeMinutes(block.hora_fim) ?? 0) > (wallTimeMinutes(block.hora_inicio) ?? Infinity),
    END_NOT_AFTER_START,
  ),
);

export type AvailabilityBlockInput = v.InferInput<typeof availabilityBlockSchema>;
