import * as v from 'valibot';
import type { Temporal } from 'temporal-polyfill';
import { ERROR_MESSAGES } from '../errors/messages.ts';
import { isOfMinimumAge, isPlausibleBirthDate } from '../identity/birth-date.ts';
import { isValidCpf, normalizeCpf } from '../identity/cpf.ts';
import { WHATSAPP_MAX_LENGTH } from '../identity/whatsapp.ts';
import { formatIsoDate, parseBrDate, parseIsoDate } from '../time/local-date.ts';
import { parseWallTime, wallTimeMinutes } from '../time/wall-time.ts';
import { parseInstant } from '../time/zone.ts';

export const MIN_PASSWORD_LENGTH = 8;

export const MESSAGES = {
  nameRequired: 'Nome é obrigatório',
  cpfRequired: 'CPF é obrigatório',
  cpfInvalid: 'CPF inválido.',
  birthDateRequired: 'Data de nascimento é obrigatória',
  birthDateInvalid: 'Data de nascimento inválida.',
  underage: 'Você deve ter no mínimo 18 anos.',
  emailRequired: 'E-mail é obrigatório',
  emailInvalid: ERROR_MESSAGES.emailInvalid,
  passwordRequired: 'Senha é obrigatória',
  passwordTooShort: ERROR_MESSAGES.weakPassword,
  newPasswordRequired: 'Nova senha é obrigatória',
  confirmationRequired: 'Confirmação é obrigatória',
  passwordsDiffer: 'As senhas não coincidem',
  urlInvalid: 'Por favor, insira uma URL válida.',
  whatsappTooLong: 'WhatsApp deve ter no máximo 30 caracteres.',
  /** A hint, never an error: the number is saved as typed (docs/product-rules.md §5). */
  whatsappLooksIncomplete:
    'Este número parece incompleto; confira o DDD e os dígitos. Ele será salvo como está.',
  invalidId: 'Identificador inválido.',
  invalidDate: 'Data inválida.',
  invalidTime: 'Horário inválido.',
  invalidInstant: 'Data e hora inválidas.',
} as const;

/** Trimmed text that must not be empty. */
export function requiredText(message: string) {
  return v.pipe(v.string(message), v.trim(), v.nonEmpty(message));
}

/** Optional free text: missing, null or blank all become null. */
export const optionalText = v.pipe(
  v.nullish(v.string(), ''),
  v.trim(),
  v.transform((value): string | null => (value === '' ? null : value)),
);

/**
 * WhatsApp is optional free text (docs/product-rules.md §5), bounded like the column (≤ 30
 * characters): a partial or foreign number is saved as typed, never refused.
 */
export const whatsappField = v.pipe(
  v.nullish(v.string(), ''),
  v.trim(),
  v.maxLength(WHATSAPP_MAX_LENGTH, MESSAGES.whatsappTooLong),
  v.transform((value): string | null => (value === '' ? null : value)),
);

export const emailField = v.pipe(
  requiredText(MESSAGES.emailRequired),
  v.email(MESSAGES.emailInvalid),
  v.toLowerCase(),
);

/** Masked or bare CPF in; its 11 digits out. */
export const cpfField = v.pipe(
  requiredText(MESSAGES.cpfRequired),
  v.check(isValidCpf, MESSAGES.cpfInvalid),
  v.transform(normalizeCpf),
);

/** Why a birth date is refused (as the profile trigger would refuse it), or null when fine. */
export function birthDateProblem(date: Temporal.PlainDate, now: Temporal.Instant): string | null {
  if (!isPlausibleBirthDate(date)) return MESSAGES.birthDateInvalid;
  return isOfMinimumAge(date, now) ? null : MESSAGES.underage;
}

/** 'dd/MM/yyyy' from the masked input → 'yyyy-MM-dd'; 18 or older on today's São Paulo date. */
export function birthDateField(now: Temporal.Instant) {
  return v.pipe(
    requiredText(MESSAGES.birthDateRequired),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const date = parseBrDate(dataset.value);
      const message = date ? birthDateProblem(date, now) : MESSAGES.birthDateInvalid;
      if (!date || message) {
        addIssue({ message: message ?? MESSAGES.birthDateInvalid });
        return NEVER;
      }
      return formatIsoDate(date);
    }),
  );
}

/** Passwords are never trimmed: a space is a character the person chose. */
export function passwordField(requiredMessage: string, minLength: number | null) {
  const required = v.pipe(v.string(requiredMessage), v.nonEmpty(requiredMessage));
  return minLength === null
    ? required
    : v.pipe(required, v.minLength(minLength, MESSAGES.passwordTooShort));
}

export const uuidField = v.pipe(v.string(MESSAGES.invalidId), v.uuid(MESSAGES.invalidId));

/** 'yyyy-MM-dd' calendar day. */
export const isoDateField = v.pipe(
  v.string(MESSAGES.invalidDate),
  v.check((value) => parseIsoDate(value) !== null, MESSAGES.invalidDate),
);

/** 'HH:mm'. */
export const inputTimeField = v.pipe(
  v.string(MESSAGES.invalidTime),
  v.regex(/^\d{2}:\d{2}$/, MESSAGES.invalidTime),
  v.check((value) => parseWallTime(value) !== null, MESSAGES.invalidTime),
);

/** 'HH:mm:ss' (Postgres `time`; '24:00:00' is the end of the day). */
export const storageTimeField = v.pipe(
  v.string(MESSAGES.invalidTime),
  v.regex(/^\d{2}:\d{2}:\d{2}$/, MESSAGES.invalidTime),
  v.check((value) => wallTimeMinutes(value) !== null, MESSAGES.invalidTime),
);

/** An instant with an explicit offset, normalised to ISO UTC ('…Z'). */
export const instantField = v.pipe(
  v.string(MESSAGES.invalidInstant),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const instant = parseInstant(dataset.value);
    if (!instant) {
      addIssue({ message: MESSAGES.invalidInstant });
      return NEVER;
    }
    return instant.toString();
  }),
);

/** http(s) only: these links are opened by other people. */
export function webUrlField(message: string) {
  return v.pipe(v.string(message), v.trim(), v.url(message), v.regex(/^https?:\/\/\S+$/i, message));
}

/** https://host.tld…, at most 2048 characters — the meeting-link rule of medico_salvar_link. */
export function httpsUrlField(message: string) {
  return v.pipe(
    v.string(message),
    v.trim(),
    v.maxLength(2048, message),
    v.url(message),
    v.regex(/^https:\/\/[^\s/?#]+\.[^\s/?#]+(?:[/?#]\S*)?$/i, message),
  );
}
