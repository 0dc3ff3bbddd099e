import {
  REALTIME_SUBSCRIBE_STATES,
  type RealtimeChannel,
  type SupabaseClient,
} from '@supabase/supabase-js';
import type { ServerRow } from './row.ts';

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
    .subscribe((status, err) => {
      if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) opts.onSubscribed();
      else if (
        status === REALTIME_SUBSCRIBE_STATES.CHANNEL_ERROR ||
        status === REALTIME_SUBSCRIBE_STATES.TIMED_OUT
      ) {
        opts.onError(err?.message ?? status);
      }
    });
}
