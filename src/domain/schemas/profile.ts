import * as v from 'valibot';
import type { Temporal } from 'temporal-polyfill';
import { centsToReais, parsePriceInput } from '../money/money.ts';
import { parseIsoDate } from '../time/local-date.ts';
import {
  MESSAGES,
  birthDateProblem,
  optionalText,
  requiredText,
  webUrlField,
  whatsappField,
} from './fields.ts';

/** An optional input: blank or missing → null; anything typed must pass `isValid`. */
function optionalChecked(isValid: (value: string) => boolean, message: string) {
  return v.pipe(
    v.nullish(v.string(message), ''),
    v.trim(),
    v.check((value) => value === '' || isValid(value), message),
    v.transform((value): string | null => (value === '' ? null : value)),
  );
}

/**
 * What a patient may change about themselves: name, WhatsApp, birth date ('yyyy-MM-dd' from a
 * date input, blank to clear). CPF and e-mail are not here on purpose — unknown keys are dropped,
 * so they can never reach the update. The age rule matches the profile trigger's, so the schema
 * is built for a given `now`.
 */
export function createPatientDataSchema(now: Temporal.Instant) {
  return v.object({
    full_name: requiredText(MESSAGES.nameRequired),
    whatsapp: whatsappField,
    data_nasc: v.pipe(
      v.nullish(v.string(MESSAGES.birthDateInvalid), ''),
      v.trim(),
      v.rawTransform(({ dataset, addIssue, NEVER }): string | null => {
        if (dataset.value === '') return null;
        const date = parseIsoDate(dataset.value);
        const message = date ? birthDateProblem(date, now) : MESSAGES.birthDateInvalid;
        if (!date || message) {
          addIssue({ message: message ?? MESSAGES.birthDateInvalid });
          return NEVER;
        }
        return dataset.value;
      }),
    ),
  });
}
export type PatientData = v.InferOutput<ReturnType<typeof createPatientDataSchema>>;

export const DOCTOR_PROFILE_MESSAGES = {
  publicNameRequired: 'Nome público é obrigatório',
  specialtyRequired: 'Especialidade é obrigatória',
  crmRequired: 'CRM é obrigatório',
  ufRequired: 'UF é obrigatório',
  ufInvalid: 'UF inválida. Use a sigla do estado (ex.: SP).',
  crmTooLong: 'CRM deve ter no máximo 20 caracteres.',
} as const;

/** The price input as typed ('130', '130,50') → cents and reais (both columns are written). */
const priceField = v.pipe(
  v.union([v.string(), v.number()]),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const parsed = parsePriceInput(String(dataset.value));
    if (!parsed.ok) {
      addIssue({ message: parsed.message });
      return NEVER;
    }
    return parsed.cents;
  }),
);

export const doctorProfileSchema = v.pipe(
  v.object({
    public_name: requiredText(DOCTOR_PROFILE_MESSAGES.publicNameRequired),
    specialty: requiredText(DOCTOR_PROFILE_MESSAGES.specialtyRequired),
    crm: v.pipe(
      requiredText(DOCTOR_PROFILE_MESSAGES.crmRequired),
      v.maxLength(20, DOCTOR_PROFILE_MESSAGES.crmTooLong),
    ),
    // The input allows two characters (docs/product-rules.md §5); the column wants two letters, upper case.
    uf: v.pipe(
      requiredText(DOCTOR_PROFILE_MESSAGES.ufRequired),
      v.regex(/^[a-z]{2}$/i, DOCTOR_PROFILE_MESSAGES.ufInvalid),
      v.toUpperCase(),
    ),
    bio: optionalText,
    price: priceField,
    doctoralia_reviews_url: optionalChecked(
      (value) => v.is(webUrlField(MESSAGES.urlInvalid), value),
      MESSAGES.urlInvalid,
    ),
  }),
  v.transform(({ price, ...profile }) => ({
    ...profile,
    price_in_cents: price,
    consulta_preco: centsToReais(price),
  })),
);
export type DoctorProfileInput = v.InferInput<typeof doctorProfileSchema>;
export type DoctorProfile = v.InferOutput<typeof doctorProfileSchema>;
