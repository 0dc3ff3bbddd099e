/**
 * The camera and microphone of this device for the room: one stream whose tracks are swapped
 * as the person chooses devices, mutes, or turns the camera off (which stops the camera, so
 * its light goes out).
 */
export type DeviceChoice = { audioInput: string | null; videoInput: string | null };

/** Why media could not be had, in the terms the screens explain (texts.ts). */
export type MediaProblem = 'permission' | 'no-device' | 'in-use' | 'insecure' | 'unknown';

export function mediaProblemOf(error: unknown): MediaProblem {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'permission';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'no-device';
  if (name === 'NotReadableError' || name === 'AbortError') return 'in-use';
  if (name === 'TypeError' && !window.isSecureContext) return 'insecure';
  return 'unknown';
}

function videoConstraints(deviceId: string | null, facingMode?: string): MediaTrackConstraints {
  return {
    ...(deviceId ? { deviceId: { exact: deviceId } } : facingMode ? { facingMode } : {}),
    // 640×360 at most: enough for a face, kind to a clinic's uplink and a phone's battery.
    width: { ideal: 640 },
    height: { ideal: 360 },
    frameRate: { ideal: 24, max: 30 },
  };
}

function audioConstraints(deviceId: string | null): MediaTrackConstraints {
  return {
    ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
    echoCancellation: true,
    noiseSuppression: true,
    autoGainControl: true,
  };
}

export class LocalMedia {
  readonly stream = new MediaStream();
  audioTrack: MediaStreamTrack | null = null;
  videoTrack: MediaStreamTrack | null = null;
  audioProblem: MediaProblem | null = null;
  videoProblem: MediaProblem | null = null;
  private muted = false;
  private cameraOff = false;
  private facing: 'user' | 'environment' = 'user';
  private readonly listeners = new Set<() => void>();

  constructor(public choice: DeviceChoice = { audioInput: null, videoInput: null }) {}

  get audioEnabled(): boolean {
    return this.audioTrack !== null && !this.muted;
  }

  get videoEnabled(): boolean {
    return this.videoTrack !== null && !this.cameraOff;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Asks for both at once (one permission prompt), then for each alone if that fails, so a
   * missing camera still leaves the microphone — and the consultation goes on by voice.
   */
  async open(): Promise<void> {
    try {
      const both = await navigator.mediaDevices.getUserMedia({
        audio: audioConstraints(this.choice.audioInput),
        video: videoConstraints(this.choice.videoInput, this.facing),
      });
      this.setTrack('audio', both.getAudioTracks()[0] ?? null);
      this.setTrack('video', both.getVideoTracks()[0] ?? null);
      this.audioProblem = null;
      this.videoProblem = null;
    } catch {
      await Promise.all([this.openKind('audio'), this.openKind('video')]);
    }
    this.emit();
  }

  /** Uses another camera or microphone from now on (also mid-call: the caller swaps senders). */
  async choose(choice: Partial<DeviceChoice>): Promise<void> {
    this.choice = { ...this.choice, ...choice };
    if (choice.audioInput !== undefined) await this.openKind('audio');
    if (choice.videoInput !== undefined && !this.cameraOff) await this.openKind('video');
    this.emit();
  }

  async setAudio(on: boolean): Promise<void> {
    this.muted = !on;
    if (on && !this.audioTrack) await this.openKind('audio');
    if (this.audioTrack) this.audioTrack.enabled = on;
    this.emit();
  }

  async setVideo(on: boolean): Promise<void> {
    this.cameraOff = !on;
    if (on) await this.openKind('video');
    else this.setTrack('video', null);
    this.emit();
  }

  /** Front ↔ back camera on phones. */
  async switchCamera(): Promise<void> {
    this.facing = this.facing === 'user' ? 'environment' : 'user';
    this.choice = { ...this.choice, videoInput: null };
    if (!this.cameraOff) await this.openKind('video');
    this.emit();
  }

  close(): void {
    this.setTrack('audio', null);
    this.setTrack('video', null);
    this.emit();
  }

  private async openKind(kind: 'audio' | 'video'): Promise<void> {
    // A phone cannot open a second camera while the first one runs.
    if (kind === 'video') this.setTrack('video', null);
    try {
      const got = await navigator.mediaDevices.getUserMedia(
        kind === 'audio'
          ? { audio: audioConstraints(this.choice.audioInput) }
          : { video: videoConstraints(this.choice.videoInput, this.facing) },
      );
      const track = (kind === 'audio' ? got.getAudioTracks() : got.getVideoTracks())[0] ?? null;
      this.setTrack(kind, track);
      if (kind === 'audio') this.audioProblem = null;
      else this.videoProblem = null;
    } catch (e) {
      this.setTrack(kind, null);
      if (kind === 'audio') this.audioProblem = mediaProblemOf(e);
      else this.videoProblem = mediaProblemOf(e);
    }
  }

  private setTrack(kind: 'audio' | 'video', track: MediaStreamTrack | null): void {
    const old = kind === 'audio' ? this.audioTrack : this.videoTrack;
    if (old && old !== track) {
      old.stop();
      this.stream.removeTrack(old);
    }
    if (track) {
      if (kind === 'audio') track.enabled = !this.muted;
      this.stream.addTrack(track);
    }
    if (kind === 'audio') this.audioTrack = track;
    else this.videoTrack = track;
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
