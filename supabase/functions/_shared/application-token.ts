import { UUID, fail, ok, type Result } from './http.ts';

/**
 * Decision links for doctor applications: `<payload>.<signature>`, both base64url, the payload
 * `{"a": application id, "exp": unix seconds}`, the signature HMAC-SHA-256 with a server secret.
 */
const encoder = new TextEncoder();

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  // A length of 1 mod 4 is no base64 at all: atob throws on it.
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
}

export async function signApplicationToken(
  secret: string,
  applicationId: string,
  expiresAtSeconds: number,
): Promise<string> {
  const payload = toBase64Url(
    encoder.encode(JSON.stringify({ a: applicationId, exp: expiresAtSeconds })),
  );
  const signature = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(secret),
    encoder.encode(payload),
  );
  return `${payload}.${toBase64Url(new Uint8Array(signature))}`;
}

export async function verifyApplicationToken(
  secret: string,
  token: string,
  nowSeconds: number,
): Promise<Result<{ applicationId: string }>> {
  const invalid = fail<{ applicationId: string }>('Token inválido ou expirado.', 401);
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return invalid;
  const signatureBytes = fromBase64Url(signature);
  const payloadBytes = fromBase64Url(payload);
  if (!signatureBytes || !payloadBytes) return invalid;
  const valid = await crypto.subtle.verify(
    'HMAC',
    await hmacKey(secret),
    signatureBytes,
    encoder.encode(payload),
  );
  if (!valid) return invalid;
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(payloadBytes));
  } catch {
    return invalid;
  }
  const { a, exp } = (claims ?? {}) as { a?: unknown; exp?: unknown };
  if (typeof a !== 'string' || !UUID.test(a) || typeof exp !== 'number' || exp <= nowSeconds)
    return invalid;
  return ok({ applicationId: a });
}
