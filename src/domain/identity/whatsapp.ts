import { applyDigitMask } from './digits.ts';

export const WHATSAPP_MASK = '(00) 00000-0000';

export function maskWhatsapp(value: string): string {
  return applyDigitMask(value, WHATSAPP_MASK);
}
