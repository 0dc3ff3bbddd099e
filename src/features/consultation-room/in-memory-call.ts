import type { StatsEntry } from '@/domain/call/link-sample.ts';
import type { CallMedia, RtcPort, SignallingFactory, SignallingPort } from './call-controller.ts';
import type { ChannelStatus, PresenceMeta, Signal } from './signalling.ts';

/**
 * For the call controller's unit tests only (Node has no WebRTC): the controller's boundaries —
 * the peer connection, the signalling channel and the local media — in memory, so that two
 * controllers can hold a call with each other in one process.
 *
 * `InMemoryPeerConnection` keeps the parts of RTCPeerConnection's offer/answer state machine
 * the controller relies on (W3C webrtc-pc §4.4): the signaling states, implicit
 * setLocalDescription, implicit rollback of a local offer when a remote one arrives, the
 * negotiationneeded event (only in 'stable'), restartIce() giving the next offer new ICE
 * credentials, and an answer to an ICE-restart offer changing them too. Media and ICE
 * themselves are not simulated: the test says when the link is up or down (`InMemoryNetwork`),
 * and getStats() returns the reports the test queued (recorded from Chromium).
 */

class InMemoryTrack {
  constructor(
    readonly kind: 'audio' | 'video',
    readonly id: string,
  ) {}
}

class InMemoryStream {
  private readonly tracks: InMemoryTrack[];
  constructor(tracks: InMemoryTrack[]) {
    this.tracks = [...tracks];
  }
  addTrack(track: InMemoryTrack): void {
    if (!this.tracks.includes(track)) this.tracks.push(track);
  }
  getTracks(): InMemoryTrack[] {
    return [...this.tracks];
  }
}

class InMemorySender {
  constructor(public track: InMemoryTrack | null) {}
  replaceTrack(track: InMemoryTrack | null): Promise<void> {
    this.track = track;
    return Promise.resolve();
  }
}

class InMemoryTransceiver {
  currentDirection: RTCRtpTransceiverDirection | null = null;
  readonly sender: InMemorySender;
  readonly receiver: { track: InMemoryTrack };
  constructor(
    readonly kind: 'audio' | 'video',
    public direction: RTCRtpTransceiverDirection,
    track: InMemoryTrack | null,
    id: string,
  ) {
    this.sender = new InMemorySender(track);
    this.receiver = { track: new InMemoryTrack(kind, `${id}-remote-${kind}`) };
  }
}

type Description = { type: RTCSdpType; sdp: string };

/** The m-lines and the ICE username fragment of our made-up SDP. */
function parseSdp(sdp: string): { kinds: ('audio' | 'video')[]; ufrag: string | null } {
  const kinds = [...sdp.matchAll(/^m=(audio|video)$/gm)].map((m) => m[1] as 'audio' | 'video');
  return { kinds, ufrag: /^a=ice-ufrag:(.+)$/m.exec(sdp)?.[1] ?? null };
}

/** A task later, as the browser queues its events and resolves its promises. */
const later = () => new Promise<void>((resolve) => setImmediate(resolve));

export class InMemoryPeerConnection {
  signalingState: RTCSignalingState = 'stable';
  connectionState: RTCPeerConnectionState = 'new';
  iceConnectionState: RTCIceConnectionState = 'new';
  localDescription: Description | null = null;
  remoteDescription: Description | null = null;

  ontrack: ((event: { track: InMemoryTrack }) => void) | null = null;
  onicecandidate:
    ((event: { candidate: { toJSON(): RTCIceCandidateInit } | null }) => void) | null = null;
  onnegotiationneeded: (() => void) | null = null;
  onconnectionstatechange: (() => void) | null = null;
  oniceconnectionstatechange: (() => void) | null = null;

  /** restartIce() calls, for the tests. */
  iceRestarts = 0;
  /** Reports getStats() hands out, oldest first; the last one stays. */
  readonly statsQueue: StatsEntry[][] = [];
  private lastStats: StatsEntry[] = [];

  private readonly transceivers: InMemoryTransceiver[] = [];
  private ufrag: string;
  private remoteUfrag: string | null = null;
  private stableLocal: Description | null = null;
  private version = 0;
  private negotiationNeeded = false;
  private restartPending = false;
  private negotiationEventQueued = false;

  constructor(
    private readonly network: InMemoryNetwork,
    readonly id: string,
  ) {
    this.ufrag = network.nextUfrag();
  }

  get ufragNow(): string {
    return this.ufrag;
  }

  addTransceiver(
    trackOrKind: InMemoryTrack | 'audio' | 'video',
    init: { direction?: RTCRtpTransceiverDirection } = {},
  ): InMemoryTransceiver {
    const kind = typeof trackOrKind === 'string' ? trackOrKind : trackOrKind.kind;
    const track = typeof trackOrKind === 'string' ? null : trackOrKind;
    const t = new InMemoryTransceiver(kind, init.direction ?? 'sendrecv', track, this.id);
    this.transceivers.push(t);
    this.markNegotiationNeeded();
    return t;
  }

  getTransceivers(): InMemoryTransceiver[] {
    return [...this.transceivers];
  }

  restartIce(): void {
    this.iceRestarts++;
    this.restartPending = true;
    this.markNegotiationNeeded();
  }

  async setLocalDescription(): Promise<void> {
    await later();
    this.assertOpen();
    if (this.signalingState === 'stable' || this.signalingState === 'have-local-offer') {
      if (this.restartPending) this.ufrag = this.network.nextUfrag();
      this.restartPending = false;
      this.negotiationNeeded = false;
      this.localDescription = this.describe('offer');
      this.signalingState = 'have-local-offer';
    } else if (this.signalingState === 'have-remote-offer') {
      this.localDescription = this.describe('answer');
      this.becomeStable();
    } else {
      throw new Error(`InvalidStateError: setLocalDescription in ${this.signalingState}`);
    }
    const ufrag = this.ufrag;
    const candidate = { candidate: `candidate:1 1 udp 1 127.0.0.1 9 typ host ufrag ${ufrag}` };
    setImmediate(() =>
      this.onicecandidate?.({
        candidate: {
          toJSON: () => ({ ...candidate, sdpMid: '0', sdpMLineIndex: 0, usernameFragment: ufrag }),
        },
      }),
    );
  }

  async setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void> {
    await later();
    this.assertOpen();
    const remote = { type: description.type, sdp: description.sdp ?? '' };
    const { kinds, ufrag } = parseSdp(remote.sdp);
    if (remote.type === 'offer') {
      // Implicit rollback of our own offer (the polite side of perfect negotiation).
      if (this.signalingState === 'have-local-offer') {
        this.signalingState = 'stable';
        this.localDescription = this.stableLocal;
      }
      if (this.signalingState !== 'stable') {
        throw new Error(`InvalidStateError: remote offer in ${this.signalingState}`);
      }
      // An ICE-restart offer: our answer carries new credentials too.
      if (this.remoteUfrag !== null && ufrag !== this.remoteUfrag) {
        this.ufrag = this.network.nextUfrag();
      }
      const added: InMemoryTransceiver[] = [];
      for (const [i, kind] of kinds.entries()) {
        if (this.transceivers[i]) continue;
        const t = new InMemoryTransceiver(kind, 'recvonly', null, this.id);
        this.transceivers.push(t);
        added.push(t);
      }
      this.signalingState = 'have-remote-offer';
      this.remoteDescription = remote;
      this.remoteUfrag = ufrag;
      for (const t of added) this.ontrack?.({ track: t.receiver.track });
      return;
    }
    if (remote.type === 'answer') {
      if (this.signalingState !== 'have-local-offer') {
        throw new Error(`InvalidStateError: answer in ${this.signalingState}`);
      }
      this.remoteDescription = remote;
      this.remoteUfrag = ufrag;
      const fresh = this.transceivers.filter((t) => t.currentDirection === null);
      this.becomeStable();
      for (const t of fresh) this.ontrack?.({ track: t.receiver.track });
      return;
    }
    throw new Error(`InvalidStateError: ${remote.type} is not handled here`);
  }

  /** Candidates are only checked for order: media is not simulated. */
  async addIceCandidate(_candidate: RTCIceCandidateInit): Promise<void> {
    await later();
    if (!this.remoteDescription) throw new Error('InvalidStateError: no remote description');
  }

  async getStats(): Promise<Map<string, StatsEntry>> {
    await later();
    this.lastStats = this.statsQueue.shift() ?? this.lastStats;
    return new Map(this.lastStats.map((e) => [e.id, e]));
  }

  close(): void {
    this.signalingState = 'closed';
    this.connectionState = 'closed';
    this.iceConnectionState = 'closed';
  }

  /** The link as ICE sees it (the test decides). */
  setLink(state: 'connected' | 'disconnected' | 'failed'): void {
    if (this.signalingState === 'closed') return;
    this.connectionState = state;
    this.iceConnectionState = state;
    this.oniceconnectionstatechange?.();
    this.onconnectionstatechange?.();
  }

  /** Offer and answer done on both sides with the current credentials. */
  negotiatedWith(other: InMemoryPeerConnection): boolean {
    return (
      this.signalingState === 'stable' &&
      other.signalingState === 'stable' &&
      this.remoteUfrag === other.ufrag &&
      other.remoteUfrag === this.ufrag
    );
  }

  private describe(type: 'offer' | 'answer'): Description {
    const lines = [
      'v=0',
      `o=- ${this.id} ${++this.version} IN IP4 127.0.0.1`,
      `a=ice-ufrag:${this.ufrag}`,
      ...this.transceivers.map((t) => `m=${t.kind}`),
    ];
    return { type, sdp: `${lines.join('\n')}\n` };
  }

  private becomeStable(): void {
    this.signalingState = 'stable';
    this.stableLocal = this.localDescription;
    for (const t of this.transceivers) t.currentDirection = t.direction;
    // An answer to the other side's offer settles a restart we had asked for as well.
    this.restartPending = false;
    if (this.negotiationNeeded) this.queueNegotiationNeeded();
  }

  private markNegotiationNeeded(): void {
    this.negotiationNeeded = true;
    if (this.signalingState === 'stable') this.queueNegotiationNeeded();
  }

  private queueNegotiationNeeded(): void {
    if (this.negotiationEventQueued) return;
    this.negotiationEventQueued = true;
    setImmediate(() => {
      this.negotiationEventQueued = false;
      if (this.signalingState === 'stable' && this.negotiationNeeded) this.onnegotiationneeded?.();
    });
  }

  private assertOpen(): void {
    if (this.signalingState === 'closed') throw new Error('InvalidStateError: closed');
  }
}

/** Every connection made through it, by whose side, and the link between the two sides. */
export class InMemoryNetwork {
  readonly connections: { side: string; pc: InMemoryPeerConnection }[] = [];
  private ufrags = 0;

  nextUfrag(): string {
    return `uf${++this.ufrags}`;
  }

  /** The RtcPort of one side (a label for the tests: 'medico', 'paciente'). */
  side(side: string): RtcPort {
    return {
      peerConnection: () => {
        const pc = new InMemoryPeerConnection(this, `${side}-pc${this.connections.length + 1}`);
        this.connections.push({ side, pc });
        return pc as unknown as RTCPeerConnection;
      },
      mediaStream: (tracks) =>
        new InMemoryStream(tracks as unknown as InMemoryTrack[]) as unknown as MediaStream,
    };
  }

  /** The side's newest connection. */
  latest(side: string): InMemoryPeerConnection | undefined {
    return this.connections.filter((c) => c.side === side).at(-1)?.pc;
  }

  /** The open connections. */
  open(): InMemoryPeerConnection[] {
    return this.connections.map((c) => c.pc).filter((pc) => pc.signalingState !== 'closed');
  }

  /** The link comes up between two connections that negotiated with each other. */
  linkUp(): boolean {
    const [a, b] = this.open();
    if (!a || !b || !a.negotiatedWith(b)) return false;
    a.setLink('connected');
    b.setLink('connected');
    return true;
  }

  linkDown(state: 'disconnected' | 'failed'): void {
    for (const pc of this.open()) pc.setLink(state);
  }
}

/**
 * The appointment's channel in memory: broadcast to everyone else, presence to everyone (keyed
 * by user id, as Realtime's presence key), each delivery a task later. `hold()` keeps messages
 * back until `release()`, so that both sides can make their offers before either arrives.
 */
export class InMemoryChannel {
  private readonly members = new Map<
    SignallingPort,
    { userId: string; handlers: Parameters<SignallingFactory>[0]; meta: PresenceMeta | null }
  >();
  private held: (() => void)[] | null = null;
  /** Every signal sent, for the tests. */
  readonly sent: Signal[] = [];

  /** The SignallingFactory of one person (user id) in the room. */
  as(userId: string): SignallingFactory {
    return (handlers) => {
      const port: SignallingPort = {
        start: async () => {
          this.members.set(port, { userId, handlers, meta: null });
          await later();
          handlers.onStatus('joined' satisfies ChannelStatus);
          this.syncPresence();
        },
        send: (signal) => {
          this.sent.push(signal);
          for (const [other, member] of this.members) {
            if (other !== port) this.deliver(() => member.handlers.onSignal(signal));
          }
        },
        track: (meta) => {
          const member = this.members.get(port);
          if (!member) return;
          member.meta = meta;
          this.syncPresence();
        },
        stop: async () => {
          this.members.delete(port);
          this.syncPresence();
          await later();
        },
      };
      return port;
    };
  }

  hold(): void {
    this.held ??= [];
  }

  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const deliver of held) setImmediate(deliver);
  }

  private deliver(run: () => void): void {
    if (this.held) this.held.push(run);
    else setImmediate(run);
  }

  private syncPresence(): void {
    const people = new Map<string, PresenceMeta[]>();
    for (const { userId, meta } of this.members.values()) {
      if (meta) people.set(userId, [...(people.get(userId) ?? []), meta]);
    }
    for (const { handlers } of this.members.values()) {
      this.deliver(() => handlers.onPresence(new Map(people)));
    }
  }
}

/** A camera and a microphone that are always there; camera off lets the track go, as LocalMedia does. */
export class InMemoryMedia implements CallMedia {
  readonly audioTrack: MediaStreamTrack;
  videoTrack: MediaStreamTrack | null;
  readonly stream: MediaStream;
  audioEnabled = true;
  private readonly camera: MediaStreamTrack;

  constructor(who: string) {
    const audio = new InMemoryTrack('audio', `${who}-mic`);
    const video = new InMemoryTrack('video', `${who}-camera`);
    this.audioTrack = audio as unknown as MediaStreamTrack;
    this.camera = video as unknown as MediaStreamTrack;
    this.videoTrack = this.camera;
    this.stream = new InMemoryStream([audio, video]) as unknown as MediaStream;
  }

  get videoEnabled(): boolean {
    return this.videoTrack !== null;
  }

  setAudio(on: boolean): Promise<void> {
    this.audioEnabled = on;
    return Promise.resolve();
  }

  setVideo(on: boolean): Promise<void> {
    this.videoTrack = on ? this.camera : null;
    return Promise.resolve();
  }

  switchCamera(): Promise<void> {
    return Promise.resolve();
  }
}
