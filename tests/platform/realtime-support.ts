import { randomUUID } from 'node:crypto';
import {
  REALTIME_SUBSCRIBE_STATES,
  createClient,
  type RealtimeChannel,
  type SupabaseClient,
} from '@supabase/supabase-js';
import WebSocket from 'ws';
import { signJwt } from '../../supabase/local/jwt.ts';
import type { TestPlatform } from '../../sync/testing/index.ts';

/** What a postgres_changes callback receives, with `new`/`old` as plain records. */
export type Change = {
  schema: string;
  table: string;
  commit_timestamp: string;
  eventType: 'INSERT' | 'UPDATE' | 'DELETE';
  new: Record<string, unknown>;
  old: Record<string, unknown>;
  errors: unknown;
};

/** Collects what a callback receives; `next` waits for the first unread item matching `pred`. */
export class Inbox<T> {
  readonly items: T[] = [];
  private read = 0;
  private waiters: (() => void)[] = [];

  readonly push = (item: T): void => {
    this.items.push(item);
    for (const w of this.waiters.splice(0)) w();
  };

  async next(pred: (item: T) => boolean = () => true, what = 'item'): Promise<T> {
    const deadline = AbortSignal.timeout(8000);
    for (;;) {
      const i = this.items.findIndex((item, idx) => idx >= this.read && pred(item));
      if (i >= 0) {
        this.read = i + 1;
        return this.items[i] as T;
      }
      if (deadline.aborted)
        throw new Error(`no ${what} arrived; got ${JSON.stringify(this.items)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        deadline.addEventListener('abort', () => resolve(), { once: true });
      });
    }
  }

  /** Everything received after the last `next`. */
  unread(): T[] {
    return this.items.slice(this.read);
  }
}

/** Subscribes and resolves once the server confirmed; rejects with the server's error. */
export function subscribed(channel: RealtimeChannel): Promise<RealtimeChannel> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) resolve(channel);
      else if (
        status === REALTIME_SUBSCRIBE_STATES.CHANNEL_ERROR ||
        status === REALTIME_SUBSCRIBE_STATES.TIMED_OUT
      ) {
        reject(err ?? new Error(status));
      }
    });
  });
}

export type TestUser = { id: string; token: string };

/** A user as the auth service would issue it: an `authenticated` JWT with a fresh uuid `sub`. */
export async function mintUser(t: TestPlatform, expiresInSeconds = 3600): Promise<TestUser> {
  const id = randomUUID();
  const now = Math.floor(Date.now() / 1000);
  const token = await signJwt(
    { sub: id, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + expiresInSeconds },
    t.platform.ctx.config.jwtSecret,
  );
  return { id, token };
}

export type UserClient = {
  client: SupabaseClient;
  /** What the client's `accessToken` callback hands out; null = the anon key. */
  token: string | null;
};

const userClients: SupabaseClient[] = [];

/**
 * An unmodified supabase-js client on the anon key whose JWT comes from the documented
 * `accessToken` option, as with third-party auth: realtime-js re-reads it after every join and
 * heartbeat, so a token set with `realtime.setAuth(token)` alone would fall back to the anon key.
 */
export async function clientAs(t: TestPlatform, user?: TestUser): Promise<UserClient> {
  const state = { token: user?.token ?? null };
  const client = createClient(t.url, t.anonKey, {
    accessToken: () => Promise.resolve(state.token),
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
  userClients.push(client);
  // Resolve the token now so the first phx_join already carries it.
  await client.realtime.setAuth();
  return {
    client,
    get token() {
      return state.token;
    },
    set token(value) {
      state.token = value;
    },
  };
}

export async function closeUserClients(): Promise<void> {
  await Promise.allSettled(userClients.splice(0).map((c) => c.removeAllChannels()));
}

let channelSeq = 0;
export function channelName(prefix: string): string {
  channelSeq += 1;
  return `${prefix}-${channelSeq}`;
}
