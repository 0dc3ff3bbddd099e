import { describe, expect, it } from 'vitest';
import {
  DROP_AFTER,
  INITIAL_AUDIO_ONLY_STATE,
  RESTORE_AFTER,
  nextAudioOnlyState,
  type AudioOnlyState,
} from './audio-only-rule.ts';
import { linkSample, type StatsEntry } from './link-sample.ts';

/**
 * A getStats() report as Chromium returns it during a call, reduced to the entries the rule
 * reads (transport, the selected candidate pair, its local candidate, and per kind an
 * outbound-rtp with the remote-inbound-rtp the other side's receiver reports make).
 * Counters are cumulative, as in the browser.
 */
type Recorded = {
  sent: number;
  lost: number;
  /** seconds, as `currentRoundTripTime` */
  rtt: number;
  bitrate: number;
};

function report(r: Recorded): StatsEntry[] {
  return [
    { type: 'transport', id: 'T01', selectedCandidatePairId: 'CPa', dtlsState: 'connected' },
    {
      type: 'candidate-pair',
      id: 'CPa',
      localCandidateId: 'Ia',
      remoteCandidateId: 'Ib',
      state: 'succeeded',
      nominated: true,
      currentRoundTripTime: r.rtt,
      availableOutgoingBitrate: r.bitrate,
    },
    { type: 'candidate-pair', id: 'CPb', state: 'failed', nominated: false },
    { type: 'local-candidate', id: 'Ia', candidateType: 'srflx', protocol: 'udp' },
    { type: 'outbound-rtp', id: 'OTa', kind: 'audio', packetsSent: Math.round(r.sent * 0.4) },
    { type: 'outbound-rtp', id: 'OTv', kind: 'video', packetsSent: Math.round(r.sent * 0.6) },
    {
      type: 'remote-inbound-rtp',
      id: 'RIa',
      kind: 'audio',
      packetsLost: Math.round(r.lost * 0.4),
      roundTripTime: r.rtt,
    },
    {
      type: 'remote-inbound-rtp',
      id: 'RIv',
      kind: 'video',
      packetsLost: Math.round(r.lost * 0.6),
      roundTripTime: r.rtt,
    },
  ];
}

/** Two seconds of a call: packets sent and lost in the interval, RTT in ms, estimate in kbit/s. */
type Step = [sent: number, lost: number, rttMs: number, kbps: number];

const good: Step = [400, 0, 40, 1500];
const lossy: Step = [400, 60, 120, 900]; // 13 % lost
const slow: Step = [300, 2, 900, 600]; // RTT 900 ms
const starved: Step = [120, 1, 200, 90]; // 90 kbit/s available
const middling: Step = [400, 20, 500, 300]; // neither weak nor good: 4.8 % lost, 500 ms

/** Runs a recording through linkSample and the rule; returns audioOnly after each step. */
function play(steps: Step[]): { modes: boolean[]; last: AudioOnlyState } {
  let cumulative: Recorded = { sent: 0, lost: 0, rtt: 0.04, bitrate: 1_500_000 };
  let previous = report(cumulative);
  let state = INITIAL_AUDIO_ONLY_STATE;
  const modes: boolean[] = [];
  for (const [sent, lost, rttMs, kbps] of steps) {
    cumulative = {
      sent: cumulative.sent + sent,
      lost: cumulative.lost + lost,
      rtt: rttMs / 1000,
      bitrate: kbps * 1000,
    };
    const current = report(cumulative);
    state = nextAudioOnlyState(state, linkSample(previous, current));
    modes.push(state.audioOnly);
    previous = current;
  }
  return { modes, last: state };
}

const repeat = (step: Step, n: number): Step[] => Array.from({ length: n }, () => step);

describe('audio-only rule over recorded getStats samples', () => {
  const cases: { name: string; steps: Step[]; modes: boolean[] }[] = [
    {
      name: 'a good link keeps video',
      steps: repeat(good, 6),
      modes: repeat(good, 6).map(() => false),
    },
    {
      name: `heavy loss drops video on the ${DROP_AFTER}rd weak sample`,
      steps: repeat(lossy, 4),
      modes: [false, false, true, true],
    },
    {
      name: 'a long round trip drops video',
      steps: repeat(slow, 3),
      modes: [false, false, true],
    },
    {
      name: 'a starved bitrate estimate drops video',
      steps: repeat(starved, 3),
      modes: [false, false, true],
    },
    {
      name: 'one good sample between weak ones starts the count again',
      steps: [lossy, lossy, good, lossy, lossy, lossy],
      modes: [false, false, false, false, false, true],
    },
    {
      name: `video returns after ${RESTORE_AFTER} good samples in a row`,
      steps: [...repeat(lossy, 3), ...repeat(good, 5)],
      modes: [false, false, true, true, true, true, true, false],
    },
    {
      name: 'a middling link neither drops video nor brings it back (hysteresis)',
      steps: [...repeat(middling, 4), ...repeat(lossy, 3), ...repeat(middling, 6)],
      modes: [
        false,
        false,
        false,
        false,
        false,
        false,
        true,
        ...repeat(middling, 6).map(() => true),
      ],
    },
    {
      name: 'a weak sample during recovery restarts the wait for video',
      steps: [...repeat(lossy, 3), ...repeat(good, 4), starved, ...repeat(good, 5)],
      modes: [false, false, true, true, true, true, true, true, true, true, true, true, false],
    },
  ];

  it.each(cases)('$name', ({ steps, modes }) => {
    expect(play(steps).modes).toEqual(modes);
  });

  it('reports the quality of the latest sample', () => {
    expect(play([good]).last.quality).toBe('boa');
    expect(play([middling]).last.quality).toBe('instavel');
    expect(play([lossy]).last.quality).toBe('fraca');
  });
});

describe('linkSample', () => {
  it('knows no loss without a previous report, and reads RTT and bitrate of the selected pair', () => {
    const current = report({ sent: 1000, lost: 50, rtt: 0.123, bitrate: 812_000 });
    expect(linkSample(null, current)).toEqual({
      packetLoss: null,
      rttMs: 123,
      availableOutgoingBitrate: 812_000,
    });
  });

  it('computes loss over the interval from the differences of the counters', () => {
    const before = report({ sent: 1000, lost: 10, rtt: 0.05, bitrate: 1e6 });
    const after = report({ sent: 1900, lost: 110, rtt: 0.05, bitrate: 1e6 });
    expect(linkSample(before, after).packetLoss).toBeCloseTo(100 / 1000, 5);
  });

  it('treats an empty report (call not connected yet) as unknown', () => {
    expect(linkSample([], [])).toEqual({
      packetLoss: null,
      rttMs: null,
      availableOutgoingBitrate: null,
    });
  });
});
