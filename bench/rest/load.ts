import http from 'node:http';

export type Measurement = { requests: number; seconds: number; p50: number; p99: number };

/**
 * Runs `op` from `clients` concurrent loops for `seconds`, after a short warm-up, and
 * reports throughput and latency percentiles in milliseconds.
 */
export async function measure(
  op: () => Promise<void>,
  clients: number,
  seconds: number,
): Promise<Measurement> {
  const warmUntil = performance.now() + 500;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < warmUntil) await op();
    }),
  );
  const latencies: number[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await op();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, seconds: elapsed, p50: at(0.5), p99: at(0.99) };
}

/**
 * Keep-alive HTTP client: one socket per concurrent client, no per-request connect. Make one
 * per measurement and `close` it, so no socket idles past the server's keep-alive timeout.
 */
export function httpClient(base: string, clients: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const request = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(`${base}${path}`, { method, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });
  return Object.assign(request, { close: () => agent.destroy() });
}
