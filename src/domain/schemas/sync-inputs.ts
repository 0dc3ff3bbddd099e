import * as v from 'valibot';
import { INTERVAL_OPTIONS } from '../rules/booking.ts';
import { ROOM_CHOICES } from '../rules/consultation-room.ts';
import { PIX_CITY_MAX_LENGTH, PIX_KEY_MAX_LENGTH, PIX_KEY_PATTERN } from '../rules/pix.ts';
import { END_NOT_AFTER_START } from '../schedule/editor.ts';
import { toStorageTime, wallTimeMinutes } from '../time/wall-time.ts';
import { MESSAGES, instantField, requiredText, uuidField } from './fields.ts';
import { DOCTOR_PROFILE_MESSAGES } from './profile.ts';

/**
 * What the sync engine accepts from a screen before it queues or stores anything
 * (sync/local-writes.ts, sync/outbox/mutations.ts): the same rules the forms and the database apply, written once here.
 * The meeting link's is in meeting-link-field.ts: the doctor's cards check it without the others.
 */

/** A booking request: the doctor and the slot's start (an instant, out as ISO UTC). */
export const bookingRequestSchema = v.object({ medicoId: uuidField, horarioInicio: instantField });

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

/**
 * A doctor's edit of their own record, in the stored form (cents, the PIX key normalised): any
 * of the columns they may write, each checked as the column's constraint checks it.
 */
export const doctorProfilePatchSchema = v.partial(
  v.object({
    public_name: requiredText(DOCTOR_PROFILE_MESSAGES.publicNameRequired),
    specialty: requiredText(DOCTOR_PROFILE_MESSAGES.specialtyRequired),
    crm: requiredText(DOCTOR_PROFILE_MESSAGES.crmRequired),
    uf: v.pipe(v.string(), v.length(2)),
    bio: v.nullable(v.string()),
    price_in_cents: v.pipe(v.number(), v.integer(), v.minValue(0)),
    image_url: v.nullable(v.string()),
    doctoralia_reviews_url: v.nullable(v.string()),
    pix_chave: v.nullable(
      v.pipe(v.string(), v.maxLength(PIX_KEY_MAX_LENGTH), v.regex(new RegExp(PIX_KEY_PATTERN))),
    ),
    pix_cidade: v.nullable(
      v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(PIX_CITY_MAX_LENGTH)),
    ),
    sala_consulta: v.picklist(ROOM_CHOICES),
  }),
);
export type DoctorProfilePatch = v.InferInput<typeof doctorProfilePatchSchema>;

/** A person's edit of their own profile fields, in the stored form. */
export const profilePatchSchema = v.partial(
  v.object({
    full_name: requiredText(MESSAGES.nameRequired),
    whatsapp: v.nullable(v.string()),
    data_nasc: v.nullable(v.pipe(v.string(), v.isoDate())),
    lembretes_email: v.boolean(),
  }),
);
export type ProfilePatch = v.InferInput<typeof profilePatchSchema>;
