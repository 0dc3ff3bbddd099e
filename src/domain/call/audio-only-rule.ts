/**
 * When a consultation drops its video to keep the voice going, and when the video comes back.
 *
 * The rule reads one `LinkSample` every few seconds (built from `RTCPeerConnection.getStats()` by
 * `link-sample.ts`) and keeps a little state, so a single bad second neither drops the picture
 * nor does a single good second bring it back: video goes after `DROP_AFTER` weak samples in a
 * row and returns after `RESTORE_AFTER` good ones in a row. Between "weak" and "good" lies a
 * band that counts for neither (hysteresis), so a link hovering at one threshold does not make
 * the picture blink on and off.
 */

/** One look at the link, over the interval since the previous look. */
export type LinkSample = {
  /** Share of our outgoing packets the other side reports lost in the interval, 0..1; null when unknown. */
  packetLoss: number | null;
  /** Round-trip time in milliseconds; null when unknown. */
  rttMs: number | null;
  /** The congestion controller's estimate of what we can send, in bits per second; null when unknown. */
  availableOutgoingBitrate: number | null;
};

export type LinkQuality = 'boa' | 'instavel' | 'fraca';

export type AudioOnlyState = {
  audioOnly: boolean;
  /** Weak samples in a row (while video is on). */
  weakStreak: number;
  /** Good samples in a row (while video is off). */
  goodStreak: number;
  quality: LinkQuality;
};

/** Below what video is not worth its bandwidth: a 320×180 picture needs about this much. */
export const WEAK_THRESHOLDS = { packetLoss: 0.1, rttMs: 700, bitrate: 150_000 } as const;
/** What the link must sustain before video is tried again. */
export const GOOD_THRESHOLDS = { packetLoss: 0.03, rttMs: 350, bitrate: 400_000 } as const;
/** Samples are taken every 2 s: video drops after ~6 s of a weak link, returns after ~10 s of a good one. */
export const DROP_AFTER = 3;
export const RESTORE_AFTER = 5;
export const SAMPLE_INTERVAL_MS = 2000;

export const INITIAL_AUDIO_ONLY_STATE: AudioOnlyState = {
  audioOnly: false,
  weakStreak: 0,
  goodStreak: 0,
  quality: 'boa',
};

/** A sample past any weak threshold. Unknown measures count as neither weak nor good. */
export function isWeak(s: LinkSample): boolean {
  return (
    (s.packetLoss !== null && s.packetLoss >= WEAK_THRESHOLDS.packetLoss) ||
    (s.rttMs !== null && s.rttMs >= WEAK_THRESHOLDS.rttMs) ||
    (s.availableOutgoingBitrate !== null && s.availableOutgoingBitrate < WEAK_THRESHOLDS.bitrate)
  );
}

/** A sample inside every good threshold; at least one measure must be known. */
export function isGood(s: LinkSample): boolean {
  const known = s.packetLoss !== null || s.rttMs !== null || s.availableOutgoingBitrate !== null;
  return (
    known &&
    (s.packetLoss === null || s.packetLoss < GOOD_THRESHOLDS.packetLoss) &&
    (s.rttMs === null || s.rttMs < GOOD_THRESHOLDS.rttMs) &&
    (s.availableOutgoingBitrate === null || s.availableOutgoingBitrate >= GOOD_THRESHOLDS.bitrate)
  );
}

function qualityOf(s: LinkSample): LinkQuality {
  if (isWeak(s)) return 'fraca';
  return isGood(s) ? 'boa' : 'instavel';
}

/** The next state after one more sample. */
export function nextAudioOnlyState(state: AudioOnlyState, sample: LinkSample): AudioOnlyState {
  const weak = isWeak(sample);
  const good = !weak && isGood(sample);
  const quality = qualityOf(sample);
  if (!state.audioOnly) {
    const weakStreak = weak ? state.weakStreak + 1 : 0;
    return weakStreak >= DROP_AFTER
      ? { audioOnly: true, weakStreak: 0, goodStreak: 0, quality }
      : { audioOnly: false, weakStreak, goodStreak: 0, quality };
  }
  const goodStreak = good ? state.goodStreak + 1 : 0;
  return goodStreak >= RESTORE_AFTER
    ? { audioOnly: false, weakStreak: 0, goodStreak: 0, quality }
    : { audioOnly: true, weakStreak: 0, goodStreak, quality };
}
