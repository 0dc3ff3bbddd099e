import type { StatsEntry } from './link-sample.ts';

/**
 * Recorded getStats() reports for the tests of the audio-only rule and of the call controller.
 *
 * A report as Chromium returns it during a call, reduced to the entries the rule reads
 * (transport, the selected candidate pair, its local candidate, and per kind an outbound-rtp
 * with the remote-inbound-rtp the other side's receiver reports make). Counters are
 * cumulative, as in the browser.
 */
export type Recorded = {
  sent: number;
  lost: number;
  /** seconds, as `currentRoundTripTime` */
  rtt: number;
  bitrate: number;
};

export function report(r: Recorded): StatsEntry[] {
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
export type Step = [sent: number, lost: number, rttMs: number, kbps: number];

export const good: Step = [400, 0, 40, 1500];
export const lossy: Step = [400, 60, 120, 900]; // 13 % lost
export const slow: Step = [300, 2, 900, 600]; // RTT 900 ms
export const starved: Step = [120, 1, 200, 90]; // 90 kbit/s available
export const middling: Step = [400, 20, 500, 300]; // neither weak nor good: 4.8 % lost, 500 ms

export const repeat = (step: Step, n: number): Step[] => Array.from({ length: n }, () => step);

/** The reports a call's getStats() returns, one per step, after a report of a fresh call. */
export function recording(steps: Step[]): { first: StatsEntry[]; reports: StatsEntry[][] } {
  let cumulative: Recorded = { sent: 0, lost: 0, rtt: 0.04, bitrate: 1_500_000 };
  const reports = steps.map(([sent, lost, rttMs, kbps]) => {
    cumulative = {
      sent: cumulative.sent + sent,
      lost: cumulative.lost + lost,
      rtt: rttMs / 1000,
      bitrate: kbps * 1000,
    };
    return report(cumulative);
  });
  return { first: report({ sent: 0, lost: 0, rtt: 0.04, bitrate: 1_500_000 }), reports };
}
