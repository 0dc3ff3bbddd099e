import { describe, expect, it } from 'vitest';
import {
  DROP_AFTER,
  INITIAL_AUDIO_ONLY_STATE,
  RESTORE_AFTER,
  nextAudioOnlyState,
  type AudioOnlyState,
} from './audio-only-rule.ts';
import { linkSample } from './link-sample.ts';
import {
  good,
  lossy,
  middling,
  recording,
  repeat,
  report,
  slow,
  starved,
  type Step,
} from './recorded-stats.ts';

/** Runs a recording through linkSample and the rule; returns audioOnly after each step. */
function play(steps: Step[]): { modes: boolean[]; last: AudioOnlyState } {
  const { first, reports } = recording(steps);
  let previous = first;
  let state = INITIAL_AUDIO_ONLY_STATE;
  const modes: boolean[] = [];
  for (const current of reports) {
    state = nextAudioOnlyState(state, linkSample(previous, current));
    modes.push(state.audioOnly);
    previous = current;
  }
  return { modes, last: state };
}

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
