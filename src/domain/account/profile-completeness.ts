export const NOT_INFORMED = 'Não informado';

export type PatientProfileFields = {
  full_name: string | null;
  cpf: string | null;
  data_nasc: string | null;
  whatsapp: string | null;
};

const REQUIRED_FOR_BOOKING = ['full_name', 'cpf', 'data_nasc', 'whatsapp'] as const;

/** docs/product-rules.md §2 "Confirmation screen": booking needs full name, CPF, birth date and WhatsApp. */
export function missingProfileFields(
  profile: PatientProfileFields | null,
): (keyof PatientProfileFields)[] {
  return REQUIRED_FOR_BOOKING.filter((field) => !profile?.[field]?.trim());
}

/** How the checkout shows a patient field: the value, or 'Não informado'. */
export function orNotInformed(value: string | null | undefined): string {
  return value?.trim() ? value : NOT_INFORMED;
}
