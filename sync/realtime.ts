// Types only: the engine's chunk must not import supabase-js, which the app loads on its own
// (src/lib/supabase-loader.ts); a value import here would make every load of the engine fetch
// and run it first.
import type {
  REALTIME_SUBSCRIBE_STATES,
  RealtimeChannel,
  SupabaseClient,
} from '@supabase/supabase-js';
import type { EngineOptions } from './engine-options.ts';
import { requestPull, type Live } from './replication.ts';
import type { ServerRow } from './row.ts';
import type { StatusTracker } from './status.ts';

export type LiveTableOptions = {
  client: SupabaseClient;
  /** Unique per collection, user and server (R3), so channels never collide. */
  topic: string;
  table: string;
  onRow: (row: ServerRow) => void;
  /** Every (re)subscription: whatever Realtime missed meanwhile must be pulled (L2). */
  onSubscribed: () => void;
  onError: (message: string) => void;
};

/**
 * Live changes of one table through Realtime (L1). No filter: Row Level Security decides
 * which rows this user receives, exactly as it does for pulls. DELETE events are ignored:
 * replicated tables soft-delete (`_deleted`), and DELETE events are not RLS-filtered.
 */
export function subscribeTable(opts: LiveTableOptions): RealtimeChannel {
  return opts.client
    .channel(opts.topic)
    .on('postgres_changes', { event: '*', schema: 'public', table: opts.table }, (payload) => {
      if (payload.eventType === 'DELETE') return;
      opts.onRow(payload.new);
    })
    .subscribe((subscribeState, err) => {
      // The enum's string values, compared as such (the enum itself is a value of supabase-js).
      const status: `${REALTIME_SUBSCRIBE_STATES}` = subscribeState;
      if (status === 'SUBSCRIBED') opts.onSubscribed();
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
        opts.onError(err?.message ?? status);
      }
    });
}

/** Marks a collection's error as its Realtime channel's, so only a new subscription clears it. */
const REALTIME_ERROR = 'realtime: ';

/**
 * Feeds a collection's replication from its table's Realtime changes (L1); every subscription
 * pulls what the channel may have missed (L2).
 */
export function subscribeLive(
  e: { readonly opts: EngineOptions; readonly status: StatusTracker },
  live: Live,
): void {
  live.channel = subscribeTable({
    client: e.opts.supabase,
    topic: live.replication.replicationIdentifier,
    table: live.spec.name,
    onRow: (row) => live.source.push([row]),
    onSubscribed: () => {
      // The stream is live again: its last failure is no longer true, whether or not the
      // pull below has anything to bring (only a page clears a pull's own error).
      e.status.clearError(live.spec.name, REALTIME_ERROR);
      requestPull(live);
    },
    onError: (message) => e.status.error(live.spec.name, `${REALTIME_ERROR}${message}`),
  });
}
