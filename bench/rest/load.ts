import net from 'node:net';

export type Measurement = {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  /** Each request's latency in ms, ascending. */
  latencies: number[];
};

/**
 * Runs `op` from `clients` concurrent loops for `seconds`, after `warmupSeconds` of the same
 * load, and reports throughput and latency percentiles in milliseconds. `onMeasuring` runs
 * between the two, for readings that must cover the measured window only.
 */
export async function measure(
  op: () => Promise<void>,
  clients: number,
  seconds: number,
  warmupSeconds = 0.5,
  onMeasuring?: () => void,
): Promise<Measurement> {
  const warmUntil = performance.now() + warmupSeconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < warmUntil) await op();
    }),
  );
  onMeasuring?.();
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
  return summarise(latencies, (performance.now() - start) / 1000);
}

/** Several windows of the same load as one: their requests, time and latencies together. */
export function combine(windows: readonly Measurement[]): Measurement {
  const seconds = windows.reduce((sum, w) => sum + w.seconds, 0);
  return summarise(
    windows.flatMap((w) => w.latencies),
    seconds,
  );
}

function summarise(latencies: number[], seconds: number): Measurement {
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, seconds, p50: at(0.5), p99: at(0.99), latencies };
}

/**
 * Keep-alive HTTP/1.1 load generator: one socket per concurrent client, one request in flight on
 * each, requests written as one preformatted string and responses framed by Content-Length or
 * chunked encoding — the way wrk drives a server. The load shares the machine's cores with the
 * server under test, and Node's `http.request` spent about three times the CPU of the server's
 * whole HTTP stack on each request, so it measured mostly itself. Make one per measurement and
 * `close` it.
 */
export function httpClient(base: string, clients: number) {
  const url = new URL(base);
  const idle = Array.from({ length: clients }, () =>
    connection(url.hostname, Number(url.port), url.host),
  );
  const waiting: ((c: Connection) => void)[] = [];
  const request = async (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<number> => {
    const c = idle.pop() ?? (await new Promise<Connection>((resolve) => waiting.push(resolve)));
    try {
      return await c.send(method, path, headers, body);
    } finally {
      const next = waiting.shift();
      if (next) next(c);
      else idle.push(c);
    }
  };
  return Object.assign(request, { close: () => idle.forEach((c) => c.close()) });
}

export type HttpClient = ReturnType<typeof httpClient>;

type Connection = ReturnType<typeof connection>;

function connection(hostname: string, port: number, host: string) {
  const socket = net.connect(port, hostname);
  socket.setNoDelay(true);
  let received: Buffer = Buffer.alloc(0);
  let current: { resolve(status: number): void; reject(e: Error): void } | undefined;
  const fail = (e: Error) => {
    current?.reject(e);
    current = undefined;
  };
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('connection closed by the server')));
  socket.on('data', (chunk: Buffer) => {
    received = received.length ? Buffer.concat([received, chunk]) : chunk;
    const framed = frame(received);
    if (framed instanceof Error) return fail(framed);
    if (!framed) return;
    received = received.subarray(framed.length);
    const done = current;
    current = undefined;
    done?.resolve(framed.status);
  });
  return {
    send(method: string, path: string, headers: Record<string, string>, body = '') {
      let head = `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\n`;
      for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
      if (body || method === 'POST') head += `content-length: ${Buffer.byteLength(body)}\r\n`;
      return new Promise<number>((resolve, reject) => {
        current = { resolve, reject };
        socket.write(`${head}\r\n${body}`);
      });
    },
    close: () => socket.destroy(),
  };
}

/** Status and byte length of the first complete response in `data`; undefined if incomplete. */
function frame(data: Buffer): { status: number; length: number } | Error | undefined {
  const headEnd = data.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const head = data.toString('latin1', 0, headEnd);
  const status = Number(head.slice(9, 12));
  const bodyStart = headEnd + 4;
  const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
  if (length !== undefined) {
    const end = bodyStart + Number(length);
    return data.length >= end ? { status, length: end } : undefined;
  }
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
    const end = data.indexOf('\r\n0\r\n\r\n', bodyStart - 2);
    return end < 0 ? undefined : { status, length: end + 7 };
  }
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
    return { status, length: bodyStart };
  }
  return new Error(`HTTP ${status} response without a length cannot be framed on keep-alive`);
}
