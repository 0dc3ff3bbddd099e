import {
  SignJWT,
  decodeProtectedHeader,
  errors as joseErrors,
  importJWK,
  jwtVerify,
  type CryptoKey,
  type JWK,
} from 'jose';
import * as v from 'valibot';

export type JwtClaims = {
  role?: string;
  sub?: string;
  exp?: number;
  iat?: number;
  session_id?: string;
  [claim: string]: unknown;
};

export type AsymmetricAlg = 'RS256' | 'ES256';

/**
 * The keys tokens are signed and verified with, as a Supabase project holds them: the legacy
 * HS256 secret (API keys, storage URL tokens, and access tokens while no signing key is set)
 * beside asymmetric signing keys (RS256/ES256) whose public halves `/auth/v1/.well-known/
 * jwks.json` publishes. Every service verifies through this one keyring.
 */
export type JwtKeyring = {
  secret: Uint8Array;
  /** The key new access tokens are signed with; undefined signs them with the secret. */
  signing: { kid: string; alg: AsymmetricAlg; key: CryptoKey } | undefined;
  verifying: ReadonlyMap<string, { alg: AsymmetricAlg; key: CryptoKey }>;
  /** The public keys, as GoTrue serves them. */
  jwks: { keys: JWK[] };
};

/** A key of a signing-keys file, in the shape `supabase gen signing-key` writes. */
const SigningJwk = v.looseObject({
  kty: v.picklist(['RSA', 'EC']),
  alg: v.picklist(['RS256', 'ES256']),
  kid: v.pipe(v.string(), v.minLength(1)),
  d: v.optional(v.string()),
});
export const SigningKeysFile = v.pipe(v.array(SigningJwk), v.minLength(1));

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'];
/** Usage members are left out before import: WebCrypto refuses `verify` on a private key. */
const USAGE_MEMBERS = ['key_ops', 'ext', 'use'];

function without(jwk: JWK, members: readonly string[]): JWK {
  return Object.fromEntries(Object.entries(jwk).filter(([name]) => !members.includes(name)));
}

function publicHalf(jwk: JWK): JWK {
  return without(jwk, [...PRIVATE_MEMBERS, ...USAGE_MEMBERS]);
}

/**
 * Builds the keyring from the project secret and the signing keys (private JWKs; a key without
 * `d` only verifies, as a rotated-out key does). The first private key signs.
 */
export async function createKeyring(
  secret: string,
  signingKeys: readonly JWK[] = [],
): Promise<JwtKeyring> {
  const parsed = signingKeys.length === 0 ? [] : v.parse(SigningKeysFile, signingKeys);
  const verifying = new Map<string, { alg: AsymmetricAlg; key: CryptoKey }>();
  const jwks: JWK[] = [];
  let signing: JwtKeyring['signing'];
  for (const jwk of parsed) {
    const pub = publicHalf(jwk);
    verifying.set(jwk.kid, { alg: jwk.alg, key: (await importJWK(pub, jwk.alg)) as CryptoKey });
    jwks.push({ ...pub, use: 'sig', key_ops: ['verify'], ext: true });
    if (!signing && jwk.d !== undefined) {
      signing = {
        kid: jwk.kid,
        alg: jwk.alg,
        key: (await importJWK(without(jwk as JWK, USAGE_MEMBERS), jwk.alg)) as CryptoKey,
      };
    }
  }
  return { secret: new TextEncoder().encode(secret), signing, verifying, jwks: { keys: jwks } };
}

/** An HS256 token with the project secret (or the keyring's): API keys, storage URL tokens. */
export async function signJwt(
  claims: JwtClaims,
  secret: string | Pick<JwtKeyring, 'secret'>,
): Promise<string> {
  const key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret.secret;
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
}

/** A user's access token: with the signing key (and its `kid`) when one is set, as GoTrue does. */
export async function signAccessToken(claims: JwtClaims, keyring: JwtKeyring): Promise<string> {
  const { signing } = keyring;
  if (!signing) return signJwt(claims, keyring);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: signing.alg, kid: signing.kid, typ: 'JWT' })
    .sign(signing.key);
}

export type JwtFailure = 'malformed' | 'bad_signature' | 'bad_alg' | 'expired' | 'bad_claims';

/**
 * A failure carries the platform's own `message` and `detail`, jose's wording for it: the
 * library storage-api verifies with, whose messages it passes through to the client.
 */
export type JwtResult =
  | { ok: true; claims: JwtClaims }
  | { ok: false; reason: JwtFailure; message: string; detail: string };

/** jose's words for an algorithm a verifier does not accept, and for a wrong signature. */
const ALG_NOT_ALLOWED = '"alg" (Algorithm) Header Parameter value not allowed';
const SIGNATURE_FAILED = 'signature verification failed';

/** The key a token's header names: HS256 takes the secret, RS256/ES256 the key of its `kid`. */
function keyFor(
  header: { alg?: string | undefined; kid?: string | undefined },
  keyring: JwtKeyring,
): { key: Uint8Array | CryptoKey; alg: string } | JwtResult {
  if (header.alg === 'HS256') return { key: keyring.secret, alg: 'HS256' };
  if (header.alg !== 'RS256' && header.alg !== 'ES256')
    return {
      ok: false,
      reason: 'bad_alg',
      message: 'Wrong or unknown JWT algorithm',
      detail: ALG_NOT_ALLOWED,
    };
  const found = header.kid === undefined ? undefined : keyring.verifying.get(header.kid);
  if (!found) {
    return {
      ok: false,
      reason: 'bad_signature',
      message: 'JWT signed with an unknown key',
      detail: SIGNATURE_FAILED,
    };
  }
  if (found.alg !== header.alg) {
    return {
      ok: false,
      reason: 'bad_alg',
      message: 'Wrong or unknown JWT algorithm',
      detail: ALG_NOT_ALLOWED,
    };
  }
  return found;
}

/**
 * Verifies a token with the keyring. The algorithm picks the kind of key before any claim is
 * trusted: `alg: none`, unknown algorithms and an asymmetric algorithm naming no known key fail,
 * and an HS256 token is never checked against a public key (algorithm confusion).
 */
export async function verifyJwt(token: string, keyring: JwtKeyring): Promise<JwtResult> {
  let header;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return malformed(token, keyring);
  }
  const chosen = keyFor(header, keyring);
  if ('ok' in chosen) return chosen;
  try {
    const { payload } = await jwtVerify(token, chosen.key, { algorithms: [chosen.alg] });
    if (payload.role !== undefined && typeof payload.role !== 'string') {
      const message = 'JWT role claim must be a string';
      return { ok: false, reason: 'bad_claims', message, detail: message };
    }
    return { ok: true, claims: payload };
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    if (e instanceof joseErrors.JWTExpired)
      return { ok: false, reason: 'expired', message: 'JWT expired', detail };
    if (e instanceof joseErrors.JWSSignatureVerificationFailed) {
      return {
        ok: false,
        reason: 'bad_signature',
        message: 'JWT signature verification failed',
        detail,
      };
    }
    if (e instanceof joseErrors.JWTClaimValidationFailed) {
      return { ok: false, reason: 'bad_claims', message: `JWT claims invalid: ${detail}`, detail };
    }
    return { ok: false, reason: 'malformed', message: 'JWT cannot be decoded', detail };
  }
}

/**
 * A token whose header does not decode. jose's own verification names what is wrong with it
 * (`Invalid Compact JWS` for anything but three parts…), before any key is used.
 */
async function malformed(token: string, keyring: JwtKeyring): Promise<JwtResult> {
  let detail = 'Invalid Compact JWS';
  try {
    await jwtVerify(token, keyring.secret, { algorithms: ['HS256'] });
  } catch (e) {
    if (e instanceof Error) detail = e.message;
  }
  return { ok: false, reason: 'malformed', message: 'JWT cannot be decoded', detail };
}
