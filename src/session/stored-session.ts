import type { Session } from '@supabase/supabase-js';
import * as v from 'valibot';
import type { AppSupabaseClient } from '@/lib/supabase.ts';

/**
 * The part of a stored session this app relies on. supabase-js writes the whole session as
 * JSON under its storage key (auth-js `_saveSession`); it counts a session as present when it
 * has both tokens and `expires_at` (`_isValidSession`), whatever the expiry.
 */
const StoredSessionSchema = v.looseObject({
  access_token: v.string(),
  refresh_token: v.pipe(v.string(), v.nonEmpty()),
  expires_at: v.number(),
  user: v.looseObject({ id: v.pipe(v.string(), v.nonEmpty()) }),
});

/**
 * Where supabase-js keeps the session. `storage` and `storageKey` are protected members of
 * GoTrueClient, read here instead of re-deriving the key: the app's client keeps the default
 * key (`sb-<host>-auth-token`), and tests give their clients storages of their own.
 */
type SessionStorageOwner = {
  storage?: { getItem(key: string): unknown; removeItem?(key: string): unknown };
  storageKey?: unknown;
};

/**
 * Who is signed in on this device, read straight from supabase-js's storage: no refresh and
 * no network, so a token that expired while offline still names its person. supabase-js's own
 * `getSession()` refreshes an expiring token first (retrying for about 25 s offline) and then
 * answers "no session" although the session is still stored (sync/SPEC.md A2).
 *
 * Returns null when nothing is stored, or when the storage only answers asynchronously (the
 * auth events then decide, as before).
 */
export function readStoredSession(client: AppSupabaseClient): Session | null {
  const owner = client.auth as unknown as SessionStorageOwner;
  if (!owner.storage || typeof owner.storageKey !== 'string') return null;
  return readSessionFrom(owner.storage, owner.storageKey);
}

/**
 * The same read for the app's own client before supabase-js is loaded: its storage is
 * localStorage (synchronous) under the default key (lib/supabase-loader.ts).
 */
export function readStoredSessionAt(storage: Storage | undefined, key: string): Session | null {
  return storage ? readSessionFrom(storage, key) : null;
}

function readSessionFrom(storage: { getItem(key: string): unknown }, key: string): Session | null {
  let raw: unknown;
  try {
    raw = storage.getItem(key);
  } catch {
    return null;
  }
  if (typeof raw !== 'string') return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = v.safeParse(StoredSessionSchema, json);
  return parsed.success ? (parsed.output as unknown as Session) : null;
}

/**
 * Forgets the session on this device only, without the network: for 'Sair' offline, where
 * supabase-js's own `signOut()` (any scope) first retries refreshing an expiring token for
 * ~30 s. Nothing can be revoked on the server offline anyway.
 */
export async function forgetStoredSession(client: AppSupabaseClient): Promise<void> {
  const owner = client.auth as unknown as SessionStorageOwner;
  if (!owner.storage?.removeItem || typeof owner.storageKey !== 'string') return;
  await owner.storage.removeItem(owner.storageKey);
}
