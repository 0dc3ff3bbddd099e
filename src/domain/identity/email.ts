import * as v from 'valibot';

const emailFormat = v.pipe(v.string(), v.trim(), v.email());

/** The same check the forms use (valibot's e-mail rule). */
export function isValidEmail(value: string): boolean {
  return v.is(emailFormat, value);
}

/** Auth compares e-mails case-insensitively; send them trimmed and lower-cased. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
