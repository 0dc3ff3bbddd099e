import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { PlatformConfig } from './config.ts';
import { createKeyring, type AsymmetricAlg, type JwtKeyring } from './jwt.ts';

/**
 * The keyring of a configuration: the secret, and the signing keys file when one is named. A
 * file that cannot be read or holds no valid key stops the start, naming the file.
 */
export async function loadKeyring(
  config: Pick<PlatformConfig, 'jwtSecret' | 'jwtSigningKeysPath'>,
): Promise<JwtKeyring> {
  const path = config.jwtSigningKeysPath;
  if (!path) return createKeyring(config.jwtSecret);
  try {
    const keys = JSON.parse(await readFile(path, 'utf8')) as JWK[];
    return await createKeyring(config.jwtSecret, keys);
  } catch (e) {
    throw new Error(
      `JWT_SIGNING_KEYS_PATH ${path}: ${e instanceof Error ? e.message : String(e)}`,
      {
        cause: e,
      },
    );
  }
}

/** A new private signing key in the shape `supabase gen signing-key` prints. */
export async function generateSigningKey(alg: AsymmetricAlg): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: randomUUID(), use: 'sig', key_ops: ['sign', 'verify'], alg, ext: true };
}
