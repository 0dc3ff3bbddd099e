import type { Temporal } from 'temporal-polyfill';
import { birthDateToIso } from '@/domain/identity/birth-date.ts';
import { maskCpf } from '@/domain/identity/cpf.ts';
import { maskWhatsapp } from '@/domain/identity/whatsapp.ts';
import { createPatientDataSchema, type PatientData } from '@/domain/schemas/profile.ts';
import { MESSAGES } from '@/domain/schemas/fields.ts';
import { validate } from '@/domain/schemas/validate.ts';
import { formatBrDate, parseIsoDate } from '@/domain/time/local-date.ts';

/** The dados form as typed: birth date 'DD/MM/AAAA', WhatsApp and CPF masked. */
export type PatientDataForm = { full_name: string; data_nasc: string; whatsapp: string };

type StoredProfile = {
  full_name: string | null;
  data_nasc: string | null;
  whatsapp: string | null;
};

export function toForm(profile: StoredProfile | null): PatientDataForm {
  const birth = profile?.data_nasc ? parseIsoDate(profile.data_nasc.slice(0, 10)) : null;
  return {
    full_name: profile?.full_name ?? '',
    data_nasc: birth ? formatBrDate(birth) : '',
    whatsapp: profile?.whatsapp ? maskWhatsapp(profile.whatsapp) : '',
  };
}

export function cpfForDisplay(cpf: string | null | undefined): string {
  return cpf ? maskCpf(cpf) : '';
}

export type FormResult =
  | { ok: true; value: PatientData }
  | { ok: false; errors: Partial<Record<keyof PatientDataForm, string>> };

/**
 * Turns the typed form into the profile patch: the birth date goes 'DD/MM/AAAA' → 'yyyy-MM-dd'
 * before the domain schema judges it, so its messages (age, plausibility) apply unchanged.
 */
export function parseForm(form: PatientDataForm, now: Temporal.Instant): FormResult {
  const typedBirth = form.data_nasc.trim();
  const isoBirth = typedBirth === '' ? '' : birthDateToIso(typedBirth);
  const result = validate(createPatientDataSchema(now), {
    full_name: form.full_name,
    whatsapp: form.whatsapp,
    data_nasc: isoBirth ?? '',
  });
  const errors: Partial<Record<keyof PatientDataForm, string>> = result.ok ? {} : result.errors;
  if (isoBirth === null) errors.data_nasc = MESSAGES.birthDateInvalid;
  if (result.ok && isoBirth !== null) return { ok: true, value: result.value };
  return { ok: false, errors };
}
