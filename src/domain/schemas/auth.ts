import * as v from 'valibot';
import type { Temporal } from 'temporal-polyfill';
import {
  MESSAGES,
  MIN_PASSWORD_LENGTH,
  birthDateField,
  cpfField,
  emailField,
  passwordField,
  requiredText,
  whatsappField,
} from './fields.ts';
import { CONSENT_METADATA_KEY, TERMS_VERSION } from '../rules/consent.ts';

export const CONSENT_REQUIRED = 'Você precisa aceitar o Termo de Consentimento para Telemedicina.';

export type AuthTarget = 'paciente' | 'medico';

/** Patient sign-up. Age depends on the day, so the schema is built for a given `now`. */
export function createSignupSchema(now: Temporal.Instant) {
  return v.object({
    full_name: requiredText(MESSAGES.nameRequired),
    cpf: cpfField,
    data_nasc: birthDateField(now),
    email: emailField,
    password: passwordField(MESSAGES.passwordRequired, MIN_PASSWORD_LENGTH),
    whatsapp: whatsappField,
    /** The telemedicine consent checkbox: sign-up needs it ticked. */
    consentimento: v.pipe(v.boolean(CONSENT_REQUIRED), v.value(true, CONSENT_REQUIRED)),
  });
}
export type SignupInput = v.InferInput<ReturnType<typeof createSignupSchema>>;
export type Signup = v.InferOutput<ReturnType<typeof createSignupSchema>>;

/** The user metadata sent with sign-up; the profile trigger copies it to perfis_usuarios. */
export type SignupMetadata = {
  full_name: string;
  cpf: string;
  whatsapp: string | null;
  role: AuthTarget;
  data_nasc: string | null;
  /** The terms version accepted; the server records the consent from it. */
  [CONSENT_METADATA_KEY]: string;
};

export function toSignupMetadata(signup: Signup): SignupMetadata {
  return {
    full_name: signup.full_name,
    cpf: signup.cpf,
    whatsapp: signup.whatsapp,
    role: 'paciente',
    data_nasc: signup.data_nasc,
    [CONSENT_METADATA_KEY]: TERMS_VERSION,
  };
}

/** Patients keep the 8-character rule on login too; doctors only need to type something. */
export function createLoginSchema(target: AuthTarget) {
  return v.object({
    email: emailField,
    password: passwordField(
      MESSAGES.passwordRequired,
      target === 'paciente' ? MIN_PASSWORD_LENGTH : null,
    ),
  });
}
export type Login = v.InferOutput<ReturnType<typeof createLoginSchema>>;

/** Reset and change password: the mismatch is reported on the confirmation field. */
export const passwordFormSchema = v.pipe(
  v.object({
    password: passwordField(MESSAGES.newPasswordRequired, MIN_PASSWORD_LENGTH),
    confirmPassword: passwordField(MESSAGES.confirmationRequired, null),
  }),
  v.forward(
    v.partialCheck(
      [['password'], ['confirmPassword']],
      (input) => input.password === input.confirmPassword,
      MESSAGES.passwordsDiffer,
    ),
    ['confirmPassword'],
  ),
);
export type PasswordForm = v.InferOutput<typeof passwordFormSchema>;

export const recoverySchema = v.object({ email: emailField });
export type Recovery = v.InferOutput<typeof recoverySchema>;
