import {
  REALTIME_SUBSCRIBE_STATES,
  type RealtimeChannel,
  type SupabaseClient,
} from '@supabase/supabase-js';
import * as v from 'valibot';

/**
 * The room's signalling over the appointment's private Realtime channel `consulta:<id>`:
 * broadcast carries the offer, answer and ICE candidates between two page sessions; presence
 * says who is in the room and in what state. Realtime Authorization (RLS on
 * realtime.messages) admits only the appointment's patient and doctor, so a refused join means
 * this account may not enter.
 */
export const roomTopic = (agendamentoId: string) => `consulta:${agendamentoId}`;

export type RoomRole = 'paciente' | 'medico';

/** What each page session shares through presence; the latest track() replaces it. */
export const PresenceMetaSchema = v.object({
  /** One per page load: a reload is a new session, so the other side builds a fresh connection. */
  sessionId: v.pipe(v.string(), v.minLength(8), v.maxLength(64)),
  role: v.picklist(['paciente', 'medico']),
  /** In the call (the doctor started it, the patient followed) rather than waiting. */
  inCall: v.boolean(),
  audio: v.boolean(),
  video: v.boolean(),
  /** Sending no video: chosen ('manual') or because the link is weak ('fraca'). */
  audioOnly: v.nullable(v.picklist(['manual', 'fraca'])),
});
export type PresenceMeta = v.InferOutput<typeof PresenceMetaSchema>;

const SessionDescriptionSchema = v.object({
  type: v.picklist(['offer', 'answer', 'pranswer', 'rollback']),
  sdp: v.optional(v.string()),
});

const IceCandidateSchema = v.object({
  candidate: v.optional(v.string()),
  sdpMid: v.optional(v.nullable(v.string())),
  sdpMLineIndex: v.optional(v.nullable(v.number())),
  usernameFragment: v.optional(v.nullable(v.string())),
});

/** A message between two page sessions; anything else on the channel is ignored. */
export const SignalSchema = v.variant('kind', [
  v.object({
    kind: v.literal('description'),
    from: v.string(),
    to: v.string(),
    description: SessionDescriptionSchema,
  }),
  v.object({
    kind: v.literal('candidate'),
    from: v.string(),
    to: v.string(),
    candidate: IceCandidateSchema,
  }),
  /** The call is over for both (either person pressed 'Encerrar'). */
  v.object({ kind: v.literal('bye'), from: v.string() }),
]);
export type Signal = v.InferOutput<typeof SignalSchema>;

export type ChannelStatus = 'connecting' | 'joined' | 'refused' | 'interrupted';

export type SignallingHandlers = {
  onSignal: (signal: Signal) => void;
  /** Everyone present, by user id (a person's newest session last). */
  onPresence: (people: Map<string, PresenceMeta[]>) => void;
  onStatus: (status: ChannelStatus, detail?: string) => void;
};

const SIGNAL_EVENT = 'signal';

/** Whether a join error is the server's refusal (policy) rather than a passing failure. */
function isRefusal(message: string | undefined): boolean {
  return Boolean(message && /unauthori[sz]ed|permission|not allowed|forbidden/i.test(message));
}

export class Signalling {
  private channel: RealtimeChannel | null = null;
  /** Sent once the channel is (re)joined: a broadcast while the socket is down would be lost. */
  private queue: Signal[] = [];
  private joined = false;
  private meta: PresenceMeta | null = null;
  private closed = false;

  constructor(
    private readonly client: SupabaseClient,
    private readonly agendamentoId: string,
    private readonly userId: string,
    private readonly handlers: SignallingHandlers,
  ) {}

  /** Joins; the channel rejoins by itself after a dropped socket and reports each state. */
  async start(): Promise<void> {
    const topic = roomTopic(this.agendamentoId);
    // supabase-js hands out the existing channel of a topic: one left by a previous entry into
    // the room (still being removed) would be reused, subscribed already. Gone first.
    await Promise.all(
      this.client
        .getChannels()
        .filter((c) => c.topic === `realtime:${topic}`)
        .map((c) => this.client.removeChannel(c)),
    );
    // Private channels authorise with the user's token, which Realtime must have first.
    await this.client.realtime.setAuth();
    if (this.closed) return;
    const channel = this.client.channel(topic, {
      config: { private: true, broadcast: { self: false }, presence: { key: this.userId } },
    });
    this.channel = channel;
    channel
      .on('broadcast', { event: SIGNAL_EVENT }, ({ payload }: { payload: unknown }) => {
        const parsed = v.safeParse(SignalSchema, payload);
        if (parsed.success) this.handlers.onSignal(parsed.output);
      })
      .on('presence', { event: 'sync' }, () => this.handlers.onPresence(this.people(channel)));
    this.handlers.onStatus('connecting');
    channel.subscribe((status, err) => {
      if (this.closed) return;
      if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) {
        this.joined = true;
        this.handlers.onStatus('joined');
        if (this.meta) void channel.track(this.meta);
        this.flush();
        return;
      }
      this.joined = false;
      if (status === REALTIME_SUBSCRIBE_STATES.CHANNEL_ERROR && isRefusal(err?.message)) {
        this.handlers.onStatus('refused', err?.message);
        void this.stop();
        return;
      }
      this.handlers.onStatus('interrupted', err?.message ?? status);
    });
  }

  send(signal: Signal): void {
    this.queue.push(signal);
    this.flush();
  }

  /** Shares this session's state; kept, and shared again after every rejoin. */
  track(meta: PresenceMeta): void {
    this.meta = meta;
    if (this.joined) void this.channel?.track(meta);
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.joined = false;
    if (this.channel) await this.client.removeChannel(this.channel);
  }

  private flush(): void {
    const channel = this.channel;
    if (!this.joined || !channel) return;
    const pending = this.queue;
    this.queue = [];
    for (const payload of pending) {
      void channel.send({ type: 'broadcast', event: SIGNAL_EVENT, payload }).then((answer) => {
        // Not delivered (the socket dropped meanwhile): back in line for the next join.
        if (answer !== 'ok') this.queue.push(payload);
      });
    }
  }

  private people(channel: RealtimeChannel): Map<string, PresenceMeta[]> {
    const people = new Map<string, PresenceMeta[]>();
    for (const [key, metas] of Object.entries(channel.presenceState())) {
      const valid = metas.flatMap((meta) => {
        const parsed = v.safeParse(PresenceMetaSchema, meta);
        return parsed.success ? [parsed.output] : [];
      });
      if (valid.length > 0) people.set(key, valid);
    }
    return people;
  }
}
