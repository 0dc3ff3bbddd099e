import { applyDigitMask, onlyDigits } from './digits.ts';

export const CPF_MASK = '000.000.000-00';

/** The 11 digits of a CPF however it was typed; not checked. */
export function normalizeCpf(value: string): string {
  return onlyDigits(value);
}

export function maskCpf(value: string): string {
  return applyDigitMask(value, CPF_MASK);
}

function checkDigit(digits: readonly number[]): number {
  const weightStart = digits.length + 1;
  const sum = digits.reduce((total, digit, i) => total + digit * (weightStart - i), 0);
  const rest = (sum * 10) % 11;
  return rest === 10 ? 0 : rest;
}

/**
 * Receita Federal check digits (mod 11 over weights 10..2, then 11..2). Repeated-digit numbers
 * (000.000.000-00, 111.111.111-11, …) pass the arithmetic but are not issued, so they are refused.
 */
export function isValidCpf(value: string): boolean {
  const cpf = normalizeCpf(value);
  if (cpf.length !== 11 || /^(\d)\1{10}$/.test(cpf)) return false;
  const digits = [...cpf].map(Number);
  const first = checkDigit(digits.slice(0, 9));
  const second = checkDigit(digits.slice(0, 10));
  return first === digits[9] && second === digits[10];
}
