/**
 * The ICE servers of the consultation room and coturn's REST-API credentials for them
 * (`use-auth-secret`, the scheme of draft-uberti-behave-turn-rest): the username is
 * `<unix expiry>:<user id>` and the password base64(HMAC-SHA1(secret, username)). Any TURN server
 * sharing the secret checks them without asking us; after the expiry it refuses them.
 */

/** How long a credential lasts: a consultation with an early entry and an overrun fits. */
export const TURN_CREDENTIAL_TTL_SECONDS = 2 * 60 * 60;

/** An RTCIceServer, as the browser's RTCPeerConnection takes it. */
export type IceServer = { urls: string[]; username?: string; credential?: string };

export type IceConfig = { turnUrls: string[]; turnSecret: string | undefined; stunUrls: string[] };

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
}

/** The configuration from the function's variables; TURN counts only with its secret. */
export function iceConfig(env: { get(name: string): string | undefined }): IceConfig {
  const turnSecret = env.get('TURN_SECRET') || undefined;
  return {
    turnUrls: turnSecret ? list(env.get('TURN_URLS')) : [],
    turnSecret,
    stunUrls: list(env.get('STUN_URLS')),
  };
}

function base64(bytes: ArrayBuffer): string {
  let binary = '';
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** coturn's REST-API credential for `userId`, valid until `expiresAt` (unix seconds). */
export async function turnCredential(
  secret: string,
  userId: string,
  expiresAt: number,
): Promise<{ username: string; credential: string }> {
  const username = `${expiresAt}:${userId}`;
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-1' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(username));
  return { username, credential: base64(mac) };
}

/**
 * What the room's RTCPeerConnection is configured with: the STUN servers, then the TURN servers
 * with a fresh credential. Neither configured: no server at all, and the call connects only
 * where the two browsers reach each other directly.
 */
export async function iceServersFor(
  config: IceConfig,
  userId: string,
  nowSeconds: number,
): Promise<{ iceServers: IceServer[]; ttlSeconds: number }> {
  const iceServers: IceServer[] = [];
  if (config.stunUrls.length > 0) iceServers.push({ urls: config.stunUrls });
  if (config.turnSecret && config.turnUrls.length > 0) {
    const expiresAt = nowSeconds + TURN_CREDENTIAL_TTL_SECONDS;
    iceServers.push({
      urls: config.turnUrls,
      ...(await turnCredential(config.turnSecret, userId, expiresAt)),
    });
  }
  return { iceServers, ttlSeconds: TURN_CREDENTIAL_TTL_SECONDS };
}
