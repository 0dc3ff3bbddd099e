import { describe, expect, it } from 'vitest';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { readStoredSession } from './stored-session.ts';

function clientWith(stored: string | null) {
  const items = new Map<string, string>();
  const storage = {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
  if (stored !== null) items.set('sb-test-auth-token', stored);
  // A real client that never reaches its (absent) server: reading must not need it.
  return createClient('http://127.0.0.1:9', 'anon-key', {
    auth: {
      storage,
      storageKey: 'sb-test-auth-token',
      autoRefreshToken: false,
      persistSession: true,
      detectSessionInUrl: false,
    },
    // Node 20 has no global WebSocket; supabase-js needs one to be created.
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
}

const session = (expiresAt: number) =>
  JSON.stringify({
    access_token: 'a',
    refresh_token: 'r',
    expires_at: expiresAt,
    token_type: 'bearer',
    user: { id: 'u-1', email: 'ana@example.com' },
  });

describe('readStoredSession', () => {
  it('names the person of a fresh, an expiring and a long-expired session alike', () => {
    const now = Math.floor(Date.now() / 1000);
    for (const expiresAt of [now + 3600, now + 30, now - 86_400]) {
      const read = readStoredSession(clientWith(session(expiresAt)));
      expect(read?.user.id).toBe('u-1');
      expect(read?.expires_at).toBe(expiresAt);
    }
  });

  it('gives nothing when nothing usable is stored', () => {
    expect(readStoredSession(clientWith(null))).toBeNull();
    expect(readStoredSession(clientWith('not json'))).toBeNull();
    expect(readStoredSession(clientWith(JSON.stringify({ access_token: 'a' })))).toBeNull();
    expect(
      readStoredSession(
        clientWith(session(0).replace('"refresh_token":"r"', '"refresh_token":""')),
      ),
    ).toBeNull();
  });
});
