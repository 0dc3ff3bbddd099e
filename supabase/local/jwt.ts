import { SignJWT, jwtVerify, decodeProtectedHeader, errors as joseErrors } from 'jose';

export type JwtClaims = {
  role?: string;
  sub?: string;
  exp?: number;
  iat?: number;
  session_id?: string;
  [claim: string]: unknown;
};

/**
 * The API keys as the Supabase CLI derives them: HS256 JWTs with only `iss`, `role` and a
 * far-future `exp`. With the dev secret these are byte-for-byte the CLI's demo keys.
 */
const KEY_EXP = 1983812996;

export type ApiKeys = { anonKey: string; serviceRoleKey: string };

export async function deriveApiKeys(secret: string): Promise<ApiKeys> {
  const sign = (role: string) =>
    new SignJWT({ iss: 'supabase-demo', role, exp: KEY_EXP })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(secret));
  return { anonKey: await sign('anon'), serviceRoleKey: await sign('service_role') };
}

export async function signJwt(claims: JwtClaims, secret: string): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(secret));
}

export type JwtFailure = 'malformed' | 'bad_signature' | 'bad_alg' | 'expired' | 'bad_claims';

export type JwtResult =
  { ok: true; claims: JwtClaims } | { ok: false; reason: JwtFailure; message: string };

/**
 * Verifies an HS256 token with the project secret. Only HS256 is accepted: `alg: none` and
 * algorithm-confusion tokens fail before any claim is trusted.
 */
export async function verifyJwt(token: string, secret: string): Promise<JwtResult> {
  let alg: string | undefined;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    return { ok: false, reason: 'malformed', message: 'JWT cannot be decoded' };
  }
  if (alg !== 'HS256')
    return { ok: false, reason: 'bad_alg', message: 'Wrong or unknown JWT algorithm' };
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
    });
    if (payload.role !== undefined && typeof payload.role !== 'string') {
      return { ok: false, reason: 'bad_claims', message: 'JWT role claim must be a string' };
    }
    return { ok: true, claims: payload };
  } catch (e) {
    if (e instanceof joseErrors.JWTExpired)
      return { ok: false, reason: 'expired', message: 'JWT expired' };
    if (e instanceof joseErrors.JWSSignatureVerificationFailed) {
      return { ok: false, reason: 'bad_signature', message: 'JWT signature verification failed' };
    }
    if (e instanceof joseErrors.JWTClaimValidationFailed) {
      return { ok: false, reason: 'bad_claims', message: `JWT claims invalid: ${e.message}` };
    }
    return { ok: false, reason: 'malformed', message: 'JWT cannot be decoded' };
  }
}
