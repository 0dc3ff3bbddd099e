import bcrypt from 'bcryptjs';
import { AuthApiError, authError } from './errors.ts';

/** GoTrue's defaults: `PASSWORD_MIN_LENGTH` 6, and bcrypt reads at most 72 bytes. */
const MIN_PASSWORD_LENGTH = 6;
const MAX_PASSWORD_BYTES = 72;
const MAX_EMAIL_LENGTH = 255;

// The HTML5 e-mail grammar, the same check GoTrue applies before any lookup.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** Normalises an address (GoTrue stores e-mails lower-cased) or rejects it. */
export function validateEmail(email: string): string {
  const trimmed = email.trim();
  if (!trimmed) throw authError(400, 'validation_failed', 'An email address is required');
  if (trimmed.length > MAX_EMAIL_LENGTH)
    throw authError(400, 'validation_failed', 'An email address is too long');
  if (!EMAIL.test(trimmed))
    throw authError(400, 'email_address_invalid', `Email address "${email}" is invalid`);
  return trimmed.toLowerCase();
}

export function checkPasswordStrength(password: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw new AuthApiError(
      422,
      'weak_password',
      `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`,
      ['length'],
    );
  }
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) {
    throw authError(
      422,
      'validation_failed',
      `Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`,
    );
  }
}

export function hashPassword(password: string, cost: number): Promise<string> {
  return bcrypt.hash(password, cost);
}

/** Accepts GoTrue's `$2a$` hashes too (seeds made with pgcrypto's `crypt(…, gen_salt('bf'))`). */
export async function passwordMatches(password: string, hash: string | null): Promise<boolean> {
  if (!hash) return false;
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}
