import { decodeJwt } from 'jose';
import { verifyJwt, type JwtKeyring } from '../jwt.ts';
import { API_ROLES, type Identity } from '../request-auth.ts';

export type TokenCheck = { ok: true; identity: Identity } | { ok: false; reason: string };

/**
 * Verifies a channel's access token the way the Realtime server does (`confirm_token`): a valid
 * signature and both `role` and `exp`. `reason` is the join error text the server sends,
 * `<Code>: <message>`.
 */
export async function checkAccessToken(token: string, keyring: JwtKeyring): Promise<TokenCheck> {
  const verified = await verifyJwt(token, keyring);
  if (!verified.ok) {
    switch (verified.reason) {
      case 'expired':
        return {
          ok: false,
          reason: `InvalidJWTToken: Token has expired ${secondsSinceExpiry(token)} seconds ago`,
        };
      case 'bad_signature':
      case 'bad_alg':
        return { ok: false, reason: 'JwtSignatureError: Failed to validate JWT signature' };
      default:
        return { ok: false, reason: `InvalidJWTToken: ${verified.message}` };
    }
  }
  const { role, exp } = verified.claims;
  if (typeof role !== 'string' || typeof exp !== 'number') {
    return { ok: false, reason: 'InvalidJWTToken: Fields `role` and `exp` are required in JWT' };
  }
  if (!(API_ROLES as readonly string[]).includes(role)) {
    return { ok: false, reason: `Unauthorized: role "${role}" does not exist` };
  }
  return { ok: true, identity: { role, claims: verified.claims, token } };
}

function secondsSinceExpiry(token: string): number {
  const { exp } = decodeJwt(token);
  return typeof exp === 'number' ? Math.max(0, Math.floor(Date.now() / 1000) - exp) : 0;
}
