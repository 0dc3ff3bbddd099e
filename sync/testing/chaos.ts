import type { Device } from './device.ts';

export type ChaosOptions = {
  /** Share of requests (0–1) the server processes but whose reply is lost. */
  lost?: number;
  /** Share of requests (0–1) cut before they reach the server. */
  cut?: number;
  /** How long the storm lasts. */
  seconds: number;
  /** Each request waits up to this long before it is sent. */
  maxLatencyMs?: number;
  /** Outages per device (the connection dead for 100–600 ms, the device not told). */
  outages?: number;
  /** The storm's seed; default SYNC_CHAOS_SEED from the environment, else a random one. */
  seed?: number;
};

export type ChaosReport = {
  seed: number;
  /** Per device, in the order given: what the storm did to it. */
  devices: { lost: number; cut: number; outages: number }[];
};

/** mulberry32: a tiny seeded generator, so a storm's draws repeat for the same seed. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seedFrom(opts: ChaosOptions): number {
  if (opts.seed !== undefined) return opts.seed;
  const env = process.env.SYNC_CHAOS_SEED;
  if (env !== undefined && env !== '') return Number(env);
  return Math.floor(Math.random() * 2 ** 31);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A bad network for `seconds` on every device given: each request may be cut or have its reply
 * lost, may wait, and each device's connection may die a few times. Every draw comes from the
 * seed, one generator per device (the n-th request of a device meets the same fate for the same
 * seed). The seed is logged when the storm starts (vitest shows a test's output only when it
 * fails); `SYNC_CHAOS_SEED=<seed>` replays it. Resolves when the storm is over and every
 * connection is back.
 */
export async function chaos(devices: Device[], opts: ChaosOptions): Promise<ChaosReport> {
  const seed = seedFrom(opts);
  console.info(`chaos seed ${seed}: replay with SYNC_CHAOS_SEED=${seed}`);
  const ms = opts.seconds * 1000;
  const report: ChaosReport = { seed, devices: [] };
  await Promise.all(
    devices.map(async (device, index) => {
      // Two generators: the requests' draws do not depend on when the outages fall.
      const random = generator(seed + index * 0x9e3779b9);
      const schedule = generator(seed + index * 0x9e3779b9 + 1);
      const lostBefore = device.net.lost.length;
      const cutBefore = device.net.cut.length;
      device.net.faults = {
        random,
        lost: opts.lost ?? 0,
        cut: opts.cut ?? 0,
        maxLatencyMs: opts.maxLatencyMs ?? 0,
      };
      const starts = Array.from({ length: opts.outages ?? 0 }, () => schedule() * ms).sort(
        (a, b) => a - b,
      );
      let at = 0;
      for (const start of starts) {
        await sleep(Math.max(0, start - at));
        const end = device.outage();
        const length = 100 + schedule() * 500;
        await sleep(length);
        end();
        at = start + length;
      }
      await sleep(Math.max(0, ms - at));
      device.net.faults = null;
      report.devices[index] = {
        lost: device.net.lost.length - lostBefore,
        cut: device.net.cut.length - cutBefore,
        outages: starts.length,
      };
    }),
  );
  return report;
}
