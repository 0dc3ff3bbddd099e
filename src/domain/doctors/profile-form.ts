import { centsToPriceInput } from '../money/money.ts';
import { doctorProfileSchema } from '../schemas/profile.ts';
import { validate } from '../schemas/validate.ts';

/** The perfil form as typed: every field a string; the price as '130.00' or '130,50'. */
export type DoctorProfileForm = {
  public_name: string;
  specialty: string;
  crm: string;
  uf: string;
  price: string;
  bio: string;
  doctoralia_reviews_url: string;
};

/** The stored doctor, as far as the form reads it (medicos columns; null when unset). */
export type StoredDoctorProfile = {
  public_name: string | null;
  specialty: string | null;
  crm: string | null;
  uf: string | null;
  price_in_cents: number | null;
  bio: string | null;
  doctoralia_reviews_url: string | null;
};

/** The columns the form writes (consulta_preco follows price_in_cents on the server). */
type ProfileColumns = {
  public_name: string;
  specialty: string;
  crm: string;
  uf: string;
  price_in_cents: number;
  bio: string | null;
  doctoralia_reviews_url: string | null;
};
export type DoctorProfileChanges = Partial<ProfileColumns>;

export const NO_CHANGES_MESSAGE = 'Nenhuma alteração detectada.';

export function toProfileForm(doctor: StoredDoctorProfile): DoctorProfileForm {
  return {
    public_name: doctor.public_name ?? '',
    specialty: doctor.specialty ?? '',
    crm: doctor.crm ?? '',
    uf: doctor.uf ?? '',
    price: centsToPriceInput(doctor.price_in_cents),
    bio: doctor.bio ?? '',
    doctoralia_reviews_url: doctor.doctoralia_reviews_url ?? '',
  };
}

/** Whether the person typed anything (the save button stays disabled until then, docs/product-rules.md §5). */
export function formTouched(form: DoctorProfileForm, initial: DoctorProfileForm): boolean {
  return (Object.keys(form) as (keyof DoctorProfileForm)[]).some((k) => form[k] !== initial[k]);
}

export type ProfileFormResult =
  | { ok: true; changes: DoctorProfileChanges }
  | { ok: false; errors: Partial<Record<keyof DoctorProfileForm, string>> }
  | { ok: false; unchanged: true; message: typeof NO_CHANGES_MESSAGE };

/**
 * Validates the form (docs/product-rules.md §5 messages) and returns only the columns whose stored value it
 * changes: a typed edit that normalises back to the stored value ('150' for 150,00, 'sp' for
 * SP) is no change, and 'Nenhuma alteração detectada.' is the answer.
 */
export function profileChanges(
  form: DoctorProfileForm,
  stored: StoredDoctorProfile,
): ProfileFormResult {
  const result = validate(doctorProfileSchema, form);
  if (!result.ok) return { ok: false, errors: result.errors };
  const next: ProfileColumns = {
    public_name: result.value.public_name,
    specialty: result.value.specialty,
    crm: result.value.crm,
    uf: result.value.uf,
    price_in_cents: result.value.price_in_cents,
    bio: result.value.bio,
    doctoralia_reviews_url: result.value.doctoralia_reviews_url,
  };
  const changes: DoctorProfileChanges = {};
  for (const key of Object.keys(next) as (keyof ProfileColumns)[]) {
    if (next[key] !== stored[key]) Object.assign(changes, { [key]: next[key] });
  }
  if (Object.keys(changes).length === 0) {
    return { ok: false, unchanged: true, message: NO_CHANGES_MESSAGE };
  }
  return { ok: true, changes };
}
