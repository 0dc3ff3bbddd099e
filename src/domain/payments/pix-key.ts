import * as v from 'valibot';
import { isValidCpf } from '@/domain/identity/cpf.ts';
import { onlyDigits } from '@/domain/identity/digits.ts';
import { MESSAGES } from '@/domain/schemas/fields.ts';
import { PIX_CITY_MAX_LENGTH, PIX_KEY_MAX_LENGTH, PIX_KEY_PATTERN } from '@/domain/rules/pix.ts';

export const PIX_KEY_TYPES = ['cpf', 'cnpj', 'email', 'telefone', 'aleatoria'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

export const PIX_KEY_TYPE_LABELS: Record<PixKeyType, string> = {
  cpf: 'CPF',
  cnpj: 'CNPJ',
  email: 'E-mail',
  telefone: 'Telefone',
  aleatoria: 'Chave aleatória',
};

export const PIX_TEXTS = {
  invalidKey: {
    cpf: MESSAGES.cpfInvalid,
    cnpj: 'CNPJ inválido.',
    email: 'E-mail inválido.',
    telefone: 'Telefone inválido. Use DDD e número, ex.: (11) 91234-5678.',
    aleatoria: 'Chave aleatória inválida. Cole a chave de 32 caracteres com os hífens.',
  } satisfies Record<PixKeyType, string>,
  cityRequired: 'Informe a cidade para o PIX.',
  cityTooLong: `A cidade deve ter no máximo ${PIX_CITY_MAX_LENGTH} caracteres.`,
} as const;

const STORED_KEY = new RegExp(PIX_KEY_PATTERN);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function cnpjCheckDigit(digits: readonly number[]): number {
  const weights =
    digits.length === 12
      ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
      : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  const sum = digits.reduce((total, d, i) => total + d * (weights[i] ?? 0), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** Receita Federal check digits of a CNPJ; repeated-digit numbers are refused. */
export function isValidCnpj(value: string): boolean {
  const cnpj = onlyDigits(value);
  if (cnpj.length !== 14 || /^(\d)\1{13}$/.test(cnpj)) return false;
  const digits = [...cnpj].map(Number);
  return (
    cnpjCheckDigit(digits.slice(0, 12)) === digits[12] &&
    cnpjCheckDigit(digits.slice(0, 13)) === digits[13]
  );
}

/** The key in its stored form, or null when it is not a key of that type. */
export function normalizePixKey(type: PixKeyType, raw: string): string | null {
  const value = raw.trim();
  switch (type) {
    case 'cpf':
      return isValidCpf(value) ? onlyDigits(value) : null;
    case 'cnpj':
      return isValidCnpj(value) ? onlyDigits(value) : null;
    case 'email': {
      const email = value.toLowerCase();
      return email.length <= PIX_KEY_MAX_LENGTH && STORED_KEY.test(email) && email.includes('@')
        ? email
        : null;
    }
    case 'telefone': {
      let digits = onlyDigits(value);
      if ((digits.length === 12 || digits.length === 13) && digits.startsWith('55')) {
        digits = digits.slice(2);
      }
      return /^[1-9]{2}(9\d{8}|[2-8]\d{7})$/.test(digits) ? `+55${digits}` : null;
    }
    case 'aleatoria': {
      const key = value.toLowerCase();
      return UUID.test(key) ? key : null;
    }
  }
}

/** The type of a stored key (the stored forms never overlap); null if it is not one. */
export function pixKeyTypeOf(stored: string): PixKeyType | null {
  if (!STORED_KEY.test(stored)) return null;
  if (stored.startsWith('+55')) return 'telefone';
  if (stored.includes('@')) return 'email';
  if (UUID.test(stored)) return 'aleatoria';
  return stored.length === 11 ? 'cpf' : 'cnpj';
}

/**
 * The perfil's PIX fields: a type, the key as typed and the city. Empty key → no PIX
 * (`pix_chave` and `pix_cidade` null); otherwise the key in its stored form and the city.
 */
export const PixSettingsForm = v.pipe(
  v.object({
    tipo: v.picklist(PIX_KEY_TYPES),
    chave: v.string(),
    cidade: v.string(),
  }),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const { tipo, chave, cidade } = dataset.value;
    if (!chave.trim()) return { pix_chave: null, pix_cidade: null };
    const key = normalizePixKey(tipo, chave);
    const city = cidade.trim();
    if (!key)
      addIssue({ message: PIX_TEXTS.invalidKey[tipo], path: [pathItem(dataset.value, 'chave')] });
    if (!city)
      addIssue({ message: PIX_TEXTS.cityRequired, path: [pathItem(dataset.value, 'cidade')] });
    if (city.length > PIX_CITY_MAX_LENGTH) {
      addIssue({ message: PIX_TEXTS.cityTooLong, path: [pathItem(dataset.value, 'cidade')] });
    }
    if (!key || !city || city.length > PIX_CITY_MAX_LENGTH) return NEVER;
    return { pix_chave: key, pix_cidade: city };
  }),
);

function pathItem(input: Record<string, string>, key: 'chave' | 'cidade') {
  return { type: 'object' as const, origin: 'value' as const, input, key, value: input[key] };
}

export type PixSettings = v.InferOutput<typeof PixSettingsForm>;
