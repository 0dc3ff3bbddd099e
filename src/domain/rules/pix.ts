/**
 * How a doctor's PIX key is stored (`medicos.pix_chave`), shared with sync/ and pinned to the
 * column's check constraint by tests/db/doctor-pix-key.test.ts. Plain constants only.
 *
 * Stored normalised, one form per key type, so the type can be read back from the value:
 * CPF 11 digits, CNPJ 14 digits, phone +55 with DDD, random key (EVP) a lower-case UUID,
 * e-mail lower case.
 */
export const PIX_KEY_PATTERN =
  '^([0-9]{11}|[0-9]{14}|\\+55[1-9]{2}[0-9]{8,9}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,})$';

/** The BR Code's key field holds at most 77 characters (the longest e-mail key). */
export const PIX_KEY_MAX_LENGTH = 77;

/** The city printed on the BR Code, as the doctor typed it (the code keeps its first 15). */
export const PIX_CITY_MAX_LENGTH = 60;
