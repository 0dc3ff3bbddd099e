import { applyDigitMask, onlyDigits } from './digits.ts';

/** Mobile numbers: DDD + 9 digits starting with 9. */
export const WHATSAPP_MASK = '(00) 00000-0000';
/** Landlines: DDD + 8 digits starting with 2–8. */
export const LANDLINE_MASK = '(00) 0000-0000';
/** The column's bound (`perfis_usuarios.whatsapp`, supabase/migrations/CONTRACT.md). */
export const WHATSAPP_MAX_LENGTH = 30;

/** What a phone number may be typed with; anything else (letters) is dropped as typed. */
const NOT_PHONE_TEXT = /[^\d\s()+.-]/g;

/**
 * Helps typing a Brazilian number: a mobile once the first digit after the DDD is 9, a landline
 * otherwise. The field is free text (docs/product-rules.md §5), so a number the mask cannot hold
 * — one starting with '+' or with more digits than the mask has room for — is kept as typed.
 */
export function maskWhatsapp(value: string): string {
  const digits = onlyDigits(value);
  const landline = digits.length >= 3 && digits[2] !== '9';
  const masked = applyDigitMask(digits, landline ? LANDLINE_MASK : WHATSAPP_MASK);
  if (value.trimStart().startsWith('+') || onlyDigits(masked).length < digits.length) {
    return value.replace(NOT_PHONE_TEXT, '').slice(0, WHATSAPP_MAX_LENGTH);
  }
  return masked;
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

/**
 * Whether a typed national number is too short to be a whole one (DDD + 8 digits at least): the
 * form says so gently and saves it all the same. An international number ('+…') is not judged.
 */
export function looksIncompleteWhatsapp(value: string): boolean {
  const digits = onlyDigits(value);
  return digits.length > 0 && digits.length < 10 && !value.trimStart().startsWith('+');
}
