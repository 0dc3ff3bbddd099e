import type { LinkSample } from './audio-only-rule.ts';

/**
 * Reading `RTCPeerConnection.getStats()` for the audio-only rule. The report is passed in as a
 * plain list of its entries (`[...report.values()]`), so this stays pure and its tests can feed
 * recorded reports.
 */
export type StatsEntry = { readonly type: string; readonly id: string } & Readonly<
  Record<string, unknown>
>;

const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** The candidate pair media flows on: the transport's selected one, else a nominated success. */
export function selectedCandidatePair(entries: readonly StatsEntry[]): StatsEntry | null {
  const transport = entries.find((e) => e.type === 'transport' && e.selectedCandidatePairId);
  if (transport) {
    const pair = entries.find((e) => e.id === transport.selectedCandidatePairId);
    if (pair) return pair;
  }
  return (
    entries.find(
      (e) => e.type === 'candidate-pair' && e.nominated === true && e.state === 'succeeded',
    ) ?? null
  );
}

/** Sums a counter over the entries of one type (audio and video streams together). */
function total(entries: readonly StatsEntry[], type: string, field: string): number | null {
  let sum: number | null = null;
  for (const e of entries) {
    if (e.type !== type) continue;
    const value = num(e[field]);
    if (value !== null) sum = (sum ?? 0) + value;
  }
  return sum;
}

/**
 * Loss over the interval: packets the other side reports lost (RTCP receiver reports, as
 * `remote-inbound-rtp`) against packets we sent, both as differences from the previous report.
 * Without a previous report (or with no packets sent since) the loss is unknown.
 */
function intervalLoss(
  previous: readonly StatsEntry[] | null,
  current: readonly StatsEntry[],
): number | null {
  if (!previous) return null;
  const lost = total(current, 'remote-inbound-rtp', 'packetsLost');
  const lostBefore = total(previous, 'remote-inbound-rtp', 'packetsLost');
  const sent = total(current, 'outbound-rtp', 'packetsSent');
  const sentBefore = total(previous, 'outbound-rtp', 'packetsSent');
  if (lost === null || lostBefore === null || sent === null || sentBefore === null) return null;
  const sentDelta = sent - sentBefore;
  if (sentDelta <= 0) return null;
  const lostDelta = Math.max(0, lost - lostBefore);
  return Math.min(1, lostDelta / (sentDelta + lostDelta));
}

/** One sample for the rule from the current report and the one taken an interval before. */
export function linkSample(
  previous: readonly StatsEntry[] | null,
  current: readonly StatsEntry[],
): LinkSample {
  const pair = selectedCandidatePair(current);
  const rttSeconds = num(pair?.currentRoundTripTime);
  return {
    packetLoss: intervalLoss(previous, current),
    rttMs: rttSeconds === null ? null : Math.round(rttSeconds * 1000),
    availableOutgoingBitrate: num(pair?.availableOutgoingBitrate),
  };
}
