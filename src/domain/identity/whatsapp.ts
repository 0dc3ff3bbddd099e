import { applyDigitMask, onlyDigits } from './digits.ts';

/** Mobile numbers: DDD + 9 digits starting with 9. */
export const WHATSAPP_MASK = '(00) 00000-0000';
/** Landlines: DDD + 8 digits starting with 2–8. */
export const LANDLINE_MASK = '(00) 0000-0000';

/** A mobile once the first digit after the DDD is 9; a landline otherwise. */
export function maskWhatsapp(value: string): string {
  const digits = onlyDigits(value);
  const landline = digits.length >= 3 && digits[2] !== '9';
  return applyDigitMask(digits, landline ? LANDLINE_MASK : WHATSAPP_MASK);
}

/**
 * A whole Brazilian number: DDD (11–99) then 9 + 8 digits (mobile) or 8 digits starting with
 * 2–8 (landline). A leading country code 55 is accepted, so numbers saved with it stay valid.
 */
export function isCompleteWhatsapp(value: string): boolean {
  let digits = onlyDigits(value);
  if ((digits.length === 12 || digits.length === 13) && digits.startsWith('55')) {
    digits = digits.slice(2);
  }
  return /^[1-9][1-9](9\d{8}|[2-8]\d{7})$/.test(digits);
}
