import type { RoomEvent } from '@/domain/rules/consultation-room.ts';
import {
  INITIAL_AUDIO_ONLY_STATE,
  SAMPLE_INTERVAL_MS,
  nextAudioOnlyState,
  type AudioOnlyState,
  type LinkQuality,
} from '@/domain/call/audio-only-rule.ts';
import { linkSample, type StatsEntry } from '@/domain/call/link-sample.ts';
import { DISCONNECTED_GRACE_MS } from '@/domain/call/reconnection.ts';
import type { ChannelStatus, PresenceMeta, RoomRole, Signal } from './signalling.ts';
import type { LocalMedia } from './local-media.ts';

/** What the controller needs from the signalling channel (`Signalling` in production). */
export type SignallingPort = {
  start(): Promise<void>;
  send(signal: Signal): void;
  track(meta: PresenceMeta): void;
  stop(): Promise<void>;
};

export type SignallingFactory = (handlers: {
  onSignal: (signal: Signal) => void;
  onPresence: (people: Map<string, PresenceMeta[]>) => void;
  onStatus: (status: ChannelStatus, detail?: string) => void;
}) => SignallingPort;

export type CallPhase =
  /** In the room, the call not started (patient: 'Aguardando o médico…'). */
  | 'waiting'
  /** Started; the connection to the other side is being set up. */
  | 'connecting'
  | 'connected'
  /** Was connected; the link dropped and an ICE restart is under way. */
  | 'reconnecting'
  | 'ended';

export type CallSnapshot = {
  channel: ChannelStatus;
  phase: CallPhase;
  /** The other person's newest session in the room, if present. */
  peer: PresenceMeta | null;
  remoteStream: MediaStream | null;
  audio: boolean;
  video: boolean;
  /** Why we send no video, if we don't while the camera is on. */
  audioOnly: 'manual' | 'fraca' | null;
  /** The latest quality of the link, while connected. */
  quality: LinkQuality | null;
  /** The call ended: by this person, by the other one. */
  endedBy: 'self' | 'peer' | null;
};

/** What the controller uses of the local camera and microphone (`LocalMedia` in production). */
export type CallMedia = Pick<
  LocalMedia,
  | 'stream'
  | 'audioTrack'
  | 'videoTrack'
  | 'audioEnabled'
  | 'videoEnabled'
  | 'setAudio'
  | 'setVideo'
  | 'switchCamera'
>;

/**
 * Where the controller gets its WebRTC objects: the browser's own in production; the unit tests
 * of the controller's state machine (Node has no WebRTC) pass an in-memory pair.
 */
export type RtcPort = {
  peerConnection(config: RTCConfiguration): RTCPeerConnection;
  mediaStream(tracks: MediaStreamTrack[]): MediaStream;
};

const BROWSER_RTC: RtcPort = {
  peerConnection: (config) => new RTCPeerConnection(config),
  mediaStream: (tracks) => new MediaStream(tracks),
};

export type CallControllerOptions = {
  role: RoomRole;
  /** This page load's id; a reload is a new session. */
  sessionId: string;
  media: CallMedia;
  signalling: SignallingFactory;
  rtc?: RtcPort;
  iceServers: () => Promise<RTCIceServer[]>;
  iceTransportPolicy?: RTCIceTransportPolicy;
  /** Records a moment on the appointment; failures must not stop the call. */
  record: (event: RoomEvent) => void;
  /** The doctor's call was already running (a reload or a closed tab): rejoin it at once. */
  resume: boolean;
};

/**
 * One person's side of a 1:1 consultation call: the RTCPeerConnection with the "perfect
 * negotiation" pattern (the patient is polite: on an offer collision it yields), signalling
 * through `SignallingPort`, the waiting room's state through presence, ICE restarts when the
 * network drops, and the audio-only rule over getStats() samples. React reads it through
 * `subscribe` and `snapshot` (useSyncExternalStore).
 */
export class CallController {
  private readonly listeners = new Set<() => void>();
  private state: CallSnapshot;
  private readonly signalling: SignallingPort;
  private readonly polite: boolean;
  private inCall: boolean;

  private pc: RTCPeerConnection | null = null;
  /** The other side's session the current connection talks to. */
  private remoteSession: string | null = null;
  private makingOffer = false;
  private ignoreOffer = false;
  private lastRemoteSdp: string | null = null;
  /** What we sent for the current negotiation: re-sent when the other side comes back. */
  private sentDescription: RTCSessionDescriptionInit | null = null;
  private sentCandidates: RTCIceCandidateInit[] = [];
  private peerWasPresent = false;
  private iceServersCache: RTCIceServer[] | null = null;

  private manualAudioOnly = false;
  private rule: AudioOnlyState = INITIAL_AUDIO_ONLY_STATE;
  private previousStats: StatsEntry[] | null = null;
  private statsTimer: ReturnType<typeof setInterval> | null = null;
  private disconnectedTimer: ReturnType<typeof setTimeout> | null = null;
  private recordedAudioOnly = false;
  private disposed = false;

  constructor(private readonly opts: CallControllerOptions) {
    this.polite = opts.role === 'paciente';
    this.inCall = opts.role === 'medico' && opts.resume;
    this.state = {
      channel: 'connecting',
      phase: this.inCall ? 'connecting' : 'waiting',
      peer: null,
      remoteStream: null,
      audio: opts.media.audioEnabled,
      video: opts.media.videoEnabled,
      audioOnly: null,
      quality: null,
      endedBy: null,
    };
    this.signalling = opts.signalling({
      onSignal: (signal) => void this.onSignal(signal),
      onPresence: (people) => this.onPresence(people),
      onStatus: (status) => this.onChannelStatus(status),
    });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): CallSnapshot => this.state;

  /** Enters the room: joins the channel and shares this session's state. */
  async join(): Promise<void> {
    // Fetched before anything can arrive, so a connection is always built without waiting.
    this.iceServersCache = await this.opts.iceServers();
    if (this.disposed) return;
    this.shareState();
    await this.signalling.start();
    if (this.opts.role === 'paciente') this.opts.record('paciente_entrou');
  }

  /** The doctor starts the call ('Iniciar consulta'); a patient cannot. */
  startCall(): void {
    if (this.opts.role !== 'medico' || this.inCall) return;
    this.inCall = true;
    this.opts.record('chamada_iniciada');
    this.update({ phase: 'connecting', endedBy: null });
    this.shareState();
    this.connectIfReady();
  }

  /** 'Encerrar': the call ends for both; the moment is recorded. */
  endCall(): void {
    if (this.state.phase === 'ended') return;
    const wasInCall = this.inCall;
    this.signalling.send({ kind: 'bye', from: this.opts.sessionId });
    this.finish('self');
    if (wasInCall) this.opts.record('chamada_encerrada');
  }

  async setAudio(on: boolean): Promise<void> {
    await this.opts.media.setAudio(on);
    await this.applyTracks();
    this.update({ audio: this.opts.media.audioEnabled });
    this.shareState();
  }

  async setVideo(on: boolean): Promise<void> {
    await this.opts.media.setVideo(on);
    await this.applyTracks();
    this.update({ video: this.opts.media.videoEnabled });
    this.shareState();
  }

  async switchCamera(): Promise<void> {
    await this.opts.media.switchCamera();
    await this.applyTracks();
  }

  /** The 'Só áudio' switch. */
  async setManualAudioOnly(on: boolean): Promise<void> {
    this.manualAudioOnly = on;
    await this.applyTracks();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.closePeer();
    this.listeners.clear();
    await this.signalling.stop();
  }

  // --- presence and channel ---

  private onChannelStatus(status: ChannelStatus): void {
    this.update({ channel: status });
    if (status === 'joined') {
      this.shareState();
      this.resendNegotiation();
      this.restartIfDown();
    }
  }

  private onPresence(people: Map<string, PresenceMeta[]>): void {
    const otherRole: RoomRole = this.opts.role === 'medico' ? 'paciente' : 'medico';
    let peer: PresenceMeta | null = null;
    for (const metas of people.values()) {
      for (const meta of metas) {
        if (meta.role === otherRole && meta.sessionId !== this.opts.sessionId) peer = meta;
      }
    }
    const cameBack = peer !== null && !this.peerWasPresent;
    this.peerWasPresent = peer !== null;
    this.update({ peer });
    if (!peer) return;
    // The patient follows the doctor into the call (also after a reload of either side).
    if (
      this.opts.role === 'paciente' &&
      peer.inCall &&
      !this.inCall &&
      this.state.phase !== 'ended'
    ) {
      this.inCall = true;
      this.update({ phase: 'connecting', endedBy: null });
      this.shareState();
    }
    void this.applyTracks();
    this.connectIfReady();
    if (cameBack) this.resendNegotiation();
  }

  private shareState(): void {
    if (this.disposed) return;
    this.signalling.track({
      sessionId: this.opts.sessionId,
      role: this.opts.role,
      inCall: this.inCall,
      audio: this.opts.media.audioEnabled,
      video: this.opts.media.videoEnabled,
      audioOnly: this.ownAudioOnly(),
    });
  }

  // --- the peer connection ---

  private connectIfReady(): void {
    const peer = this.state.peer;
    if (!this.inCall || !peer?.inCall) return;
    if (this.pc && this.remoteSession === peer.sessionId) return;
    this.createPeer(peer.sessionId);
  }

  private createPeer(remoteSession: string): RTCPeerConnection {
    this.closePeer();
    this.remoteSession = remoteSession;
    const rtc = this.opts.rtc ?? BROWSER_RTC;
    const pc = rtc.peerConnection({
      iceServers: this.iceServersCache ?? [],
      iceTransportPolicy: this.opts.iceTransportPolicy ?? 'all',
    });
    this.pc = pc;
    this.lastRemoteSdp = null;
    this.sentDescription = null;
    this.sentCandidates = [];
    const remoteStream = rtc.mediaStream([]);
    this.update({ remoteStream, phase: 'connecting', quality: null });

    pc.ontrack = ({ track }) => {
      remoteStream.addTrack(track);
      // A new object, so React sees the change.
      this.update({ remoteStream: rtc.mediaStream(remoteStream.getTracks()) });
    };
    pc.onicecandidate = ({ candidate }) => {
      if (!candidate) return;
      const init = candidate.toJSON();
      this.sentCandidates.push(init);
      this.send({ kind: 'candidate', candidate: init });
    };
    pc.onnegotiationneeded = async () => {
      try {
        this.makingOffer = true;
        await pc.setLocalDescription();
        this.sendDescription(pc.localDescription);
      } catch (e) {
        console.error('Offer failed.', e);
      } finally {
        this.makingOffer = false;
      }
    };
    pc.onconnectionstatechange = () => this.onConnectionState(pc);
    pc.oniceconnectionstatechange = () => {
      if (pc.iceConnectionState === 'failed') pc.restartIce();
    };

    // The impolite side (the doctor) lays out the media: one audio and one video transceiver
    // that stay sendrecv, so turning the camera off and on never needs a renegotiation.
    if (!this.polite) {
      const stream = this.opts.media.stream;
      pc.addTransceiver(this.opts.media.audioTrack ?? 'audio', {
        direction: 'sendrecv',
        streams: [stream],
      });
      pc.addTransceiver(this.sendableVideo() ?? 'video', {
        direction: 'sendrecv',
        streams: [stream],
      });
    }
    this.startStats(pc);
    return pc;
  }

  private send(
    signal:
      | { kind: 'description'; description: RTCSessionDescriptionInit }
      | {
          kind: 'candidate';
          candidate: RTCIceCandidateInit;
        },
  ): void {
    if (!this.remoteSession) return;
    const from = this.opts.sessionId;
    const to = this.remoteSession;
    if (signal.kind === 'description') {
      this.signalling.send({
        kind: 'description',
        from,
        to,
        description: { type: signal.description.type, sdp: signal.description.sdp ?? '' },
      });
    } else {
      this.signalling.send({
        kind: 'candidate',
        from,
        to,
        candidate: {
          candidate: signal.candidate.candidate ?? '',
          sdpMid: signal.candidate.sdpMid ?? null,
          sdpMLineIndex: signal.candidate.sdpMLineIndex ?? null,
          usernameFragment: signal.candidate.usernameFragment ?? null,
        },
      });
    }
  }

  private sendDescription(description: RTCSessionDescription | null): void {
    if (!description) return;
    const init = { type: description.type, sdp: description.sdp };
    this.sentDescription = init;
    this.sentCandidates = [];
    this.send({ kind: 'description', description: init });
  }

  /**
   * Broadcasts are not kept for whoever is away: when the other side (or we) rejoin the
   * channel, the negotiation in flight is sent again, so neither side waits for an answer
   * that went nowhere. Duplicates are ignored on arrival.
   */
  private resendNegotiation(): void {
    if (!this.pc || !this.sentDescription) return;
    this.send({ kind: 'description', description: this.sentDescription });
    for (const candidate of this.sentCandidates) this.send({ kind: 'candidate', candidate });
  }

  private async onSignal(signal: Signal): Promise<void> {
    if (this.disposed) return;
    if (signal.kind === 'bye') {
      if (signal.from === this.state.peer?.sessionId || signal.from === this.remoteSession) {
        this.finish('peer');
      }
      return;
    }
    if (signal.to !== this.opts.sessionId || !this.inCall) return;
    let pc = this.pc;
    if (signal.from !== this.remoteSession) {
      // A new session of the other person (a reload): only its offer opens a new connection.
      if (signal.kind !== 'description' || signal.description.type !== 'offer') return;
      pc = this.createPeer(signal.from);
    }
    if (!pc) return;
    try {
      if (signal.kind === 'description') {
        const description = signal.description;
        if (description.sdp && description.sdp === this.lastRemoteSdp) return;
        if (description.type === 'answer' && pc.signalingState === 'stable') return;
        const offerCollision =
          description.type === 'offer' && (this.makingOffer || pc.signalingState !== 'stable');
        this.ignoreOffer = !this.polite && offerCollision;
        if (this.ignoreOffer) return;
        this.lastRemoteSdp = description.sdp ?? null;
        await pc.setRemoteDescription(description);
        if (description.type === 'offer') {
          if (this.polite) await this.attachTracksToOffer(pc);
          await pc.setLocalDescription();
          this.sendDescription(pc.localDescription);
        }
      } else {
        try {
          await pc.addIceCandidate(signal.candidate);
        } catch (e) {
          if (!this.ignoreOffer) throw e;
        }
      }
    } catch (e) {
      console.error('Signalling message failed.', e);
    }
  }

  /** The polite side answers with its own media on the transceivers the offer created. */
  private async attachTracksToOffer(pc: RTCPeerConnection): Promise<void> {
    for (const t of pc.getTransceivers()) {
      const kind = t.receiver.track.kind;
      if (t.currentDirection === 'stopped') continue;
      t.direction = 'sendrecv';
      const track = kind === 'audio' ? this.opts.media.audioTrack : this.sendableVideo();
      if (t.sender.track !== track) await t.sender.replaceTrack(track);
    }
  }

  private onConnectionState(pc: RTCPeerConnection): void {
    if (pc !== this.pc) return;
    const s = pc.connectionState;
    if (this.disconnectedTimer) clearTimeout(this.disconnectedTimer);
    this.disconnectedTimer = null;
    if (s === 'connected') this.update({ phase: 'connected' });
    else if (s === 'disconnected' || s === 'failed') {
      if (this.state.phase === 'connected') this.update({ phase: 'reconnecting', quality: null });
      if (s === 'failed') pc.restartIce();
      else this.disconnectedTimer = setTimeout(() => this.restartIfDown(), DISCONNECTED_GRACE_MS);
    }
  }

  private restartIfDown(): void {
    const pc = this.pc;
    if (!pc) return;
    if (pc.connectionState === 'disconnected' || pc.connectionState === 'failed') pc.restartIce();
  }

  private closePeer(): void {
    if (this.statsTimer) clearInterval(this.statsTimer);
    if (this.disconnectedTimer) clearTimeout(this.disconnectedTimer);
    this.statsTimer = null;
    this.disconnectedTimer = null;
    if (this.pc) {
      this.pc.ontrack = null;
      this.pc.onicecandidate = null;
      this.pc.onnegotiationneeded = null;
      this.pc.onconnectionstatechange = null;
      this.pc.oniceconnectionstatechange = null;
      this.pc.close();
    }
    this.pc = null;
    this.remoteSession = null;
    this.previousStats = null;
    this.rule = INITIAL_AUDIO_ONLY_STATE;
  }

  private finish(by: 'self' | 'peer'): void {
    this.inCall = false;
    this.closePeer();
    this.update({
      phase: 'ended',
      endedBy: by,
      remoteStream: null,
      quality: null,
      audioOnly: null,
    });
    this.shareState();
  }

  // --- media and the audio-only rule ---

  private ownAudioOnly(): 'manual' | 'fraca' | null {
    if (this.manualAudioOnly) return 'manual';
    return this.rule.audioOnly ? 'fraca' : null;
  }

  /** Video goes out unless the camera is off, 'Só áudio' is on, or either side's link is weak. */
  private sendableVideo(): MediaStreamTrack | null {
    const weak = this.rule.audioOnly || this.state.peer?.audioOnly === 'fraca';
    return this.manualAudioOnly || weak ? null : this.opts.media.videoTrack;
  }

  private async applyTracks(): Promise<void> {
    const audioOnly = this.ownAudioOnly();
    const weakEither = audioOnly === 'fraca' || this.state.peer?.audioOnly === 'fraca';
    const shown = audioOnly ?? (weakEither ? 'fraca' : null);
    if (shown !== this.state.audioOnly) {
      this.update({ audioOnly: shown });
      this.shareState();
      if (shown && this.inCall && !this.recordedAudioOnly) {
        this.recordedAudioOnly = true;
        this.opts.record('so_audio');
      }
    }
    const pc = this.pc;
    if (!pc) return;
    for (const t of pc.getTransceivers()) {
      if (t.currentDirection === 'stopped' || t.direction === 'inactive') continue;
      const kind = t.receiver.track.kind;
      const track = kind === 'audio' ? this.opts.media.audioTrack : this.sendableVideo();
      if (t.sender.track !== track) await t.sender.replaceTrack(track).catch(() => undefined);
    }
  }

  private startStats(pc: RTCPeerConnection): void {
    this.statsTimer = setInterval(() => void this.sampleStats(pc), SAMPLE_INTERVAL_MS);
  }

  private async sampleStats(pc: RTCPeerConnection): Promise<void> {
    if (pc !== this.pc || pc.connectionState !== 'connected') return;
    const report = await pc.getStats();
    const entries = [...report.values()] as StatsEntry[];
    const sample = linkSample(this.previousStats, entries);
    this.previousStats = entries;
    // Without video going out the bandwidth estimate is not probed: it says nothing then.
    const sendingVideo = this.sendableVideo() !== null;
    const before = this.rule.audioOnly;
    this.rule = nextAudioOnlyState(
      this.rule,
      sendingVideo ? sample : { ...sample, availableOutgoingBitrate: null },
    );
    this.update({ quality: this.rule.quality });
    if (before !== this.rule.audioOnly) await this.applyTracks();
  }

  private update(patch: Partial<CallSnapshot>): void {
    if (this.disposed) return;
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}
