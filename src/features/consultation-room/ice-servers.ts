import type { SupabaseClient } from '@supabase/supabase-js';
import * as v from 'valibot';

const IceServerSchema = v.object({
  urls: v.union([v.string(), v.array(v.string())]),
  username: v.optional(v.string()),
  credential: v.optional(v.string()),
});

const TurnCredentialsSchema = v.object({
  iceServers: v.array(IceServerSchema),
  ttlSeconds: v.optional(v.number()),
});

/**
 * The STUN/TURN servers for this appointment's call, with short-lived TURN credentials from the
 * `turn-credentials` edge function. When the function fails (offline, not configured, refused)
 * the call still tries without servers: two devices on one network, or with open NATs, connect
 * anyway.
 */
export async function fetchIceServers(
  client: SupabaseClient,
  agendamentoId: string,
): Promise<RTCIceServer[]> {
  try {
    const answer: { data: unknown; error: unknown } = await client.functions.invoke<unknown>(
      'turn-credentials',
      { body: { agendamentoId } },
    );
    if (answer.error) throw new Error('turn-credentials failed', { cause: answer.error });
    const parsed = v.safeParse(TurnCredentialsSchema, answer.data);
    if (!parsed.success) throw new Error('turn-credentials answered an unexpected shape');
    return parsed.output.iceServers;
  } catch (e) {
    console.warn('No STUN/TURN servers for the call; trying without them.', e);
    return [];
  }
}

/**
 * `?transporte=relay` forces every packet through TURN — how support (and the tests) check that
 * the relay works for a network. It only changes this browser's own connection.
 */
export function transportPolicyFromUrl(search: string): RTCIceTransportPolicy {
  return new URLSearchParams(search).get('transporte') === 'relay' ? 'relay' : 'all';
}
