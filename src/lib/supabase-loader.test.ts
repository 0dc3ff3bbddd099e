import { describe, expect, it } from 'vitest';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { defaultAuthStorageKey } from './supabase-loader.ts';

describe('defaultAuthStorageKey', () => {
  // The session provider reads the stored session under this key before supabase-js loads:
  // it must be the key a real client with default options uses.
  it.each(['http://127.0.0.1:54321', 'https://abcd.supabase.co/', 'http://localhost:8000'])(
    'matches supabase-js for %s',
    (url) => {
      const client = createClient(url, 'anon-key', {
        auth: { autoRefreshToken: false, persistSession: false, detectSessionInUrl: false },
        // Node 20 has no global WebSocket; supabase-js needs one to be created.
        realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
      });
      const { storageKey } = client.auth as unknown as { storageKey: string };
      expect(defaultAuthStorageKey(url)).toBe(storageKey);
    },
  );
});
