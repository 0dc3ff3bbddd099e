import * as v from 'valibot';
import { centsToReais, parsePriceInput } from '../money/money.ts';
import { parseIsoDate } from '../time/local-date.ts';
import { MESSAGES, optionalText, requiredText, webUrlField } from './fields.ts';

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
 * What a patient may change about themselves: name, WhatsApp, birth date. CPF and e-mail are not
 * here on purpose — unknown keys are dropped, so they can never reach the update.
 */
export const patientDataSchema = v.object({
  full_name: requiredText(MESSAGES.nameRequired),
  whatsapp: optionalText,
  data_nasc: optionalChecked((value) => parseIsoDate(value) !== null, MESSAGES.birthDateInvalid),
});
export type PatientData = v.InferOutput<typeof patientDataSchema>;

export const DOCTOR_PROFILE_MESSAGES = {
  publicNameRequired: 'Nome público é obrigatório',
  specialtyRequired: 'Especialidade é obrigatória',
  crmRequired: 'CRM é obrigatório',
  ufRequired: 'UF é obrigatório',
  ufTooLong: 'UF deve ter no máximo 2 letras',
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
    crm: requiredText(DOCTOR_PROFILE_MESSAGES.crmRequired),
    uf: v.pipe(
      requiredText(DOCTOR_PROFILE_MESSAGES.ufRequired),
      v.maxLength(2, DOCTOR_PROFILE_MESSAGES.ufTooLong),
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
