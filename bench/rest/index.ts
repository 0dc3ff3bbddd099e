/**
 * /rest/v1 versus the same SQL sent straight to the database with the platform's own driver,
 * on PostgreSQL and on PGlite: GET by id and a single-row POST (return=minimal), 16 concurrent
 * clients, fixed duration after a warm-up. Rows per case:
 *  - `REST`: HTTP through the platform;
 *  - `direct`: the generated statement alone, sent as the driver's `query` sends it (an unnamed
 *    statement, parsed and planned every time) — the baseline of the goal;
 *  - `direct+role`: the statement as REST runs it (after the role/claims settings, in one batch
 *    and one implicit transaction, both prepared once per connection), no HTTP;
 *  - `HTTP+batch`: that same batch behind a bare `node:http` handler in the platform's process,
 *    on the platform's own connections — what an HTTP hop costs before any of REST's own work
 *    (parsing, planning, negotiation, auth, errors);
 *  - `HTTP alone` (GET): an empty HTTP round trip.
 * So the ratios split the cost of running as the caller, of the HTTP hop and of REST itself.
 * Each row also shows the CPU time per request of every process taking part — this bench
 * process (load generator or driver), the platform's server and the PostgreSQL backends — since
 * on a small machine they all compete for the same cores.
 * `npx tsx bench/rest/index.ts` or `npm run bench`.
 */
import { openDatabase, type Database } from '../../supabase/local/db/index.ts';
import { bootstrap } from '../../supabase/local/bootstrap/index.ts';
import { createLogger } from '../../supabase/local/log.ts';
import { batchAs } from '../../supabase/local/request-auth.ts';
import { cpuColumns, postgresCpuUs, processCpuUs, totalCpu, type CpuPerRequest } from '../cpu.ts';
import { combine, httpClient, measure, type HttpClient, type Measurement } from './load.ts';
import { MIGRATIONS_DIR, onEachBackend, startServer, type Backend } from './setup.ts';
import { ANON, GET_SQL, getParams, INSERT_SQL } from './statements.ts';

const CLIENTS = 16;
/** Measured seconds per case, split over `ROUNDS` windows. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/**
 * Load before each measured window. PGlite's WebAssembly reaches its optimised tier only after
 * a few seconds of load (a server runs for hours), and the CPU columns count what the compiler
 * threads spend until then.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
/** Load before the later windows of a case: the process is warm, the connections are not. */
const REWARM_SECONDS = 0.5;
const ROWS = 1000;
const randomId = () => 1 + Math.floor(Math.random() * ROWS);
const newRow = () => JSON.stringify([{ name: 'bench', qty: 1 }]);

type Row = {
  backend: string;
  scenario: string;
  path: string;
  m: Measurement;
  cpu: CpuPerRequest;
  /** Requests per second in each round. */
  rounds: number[];
};

function fmt(r: Row): string {
  const rps = r.m.requests / r.m.seconds;
  return `${r.backend.padEnd(10)} ${r.scenario.padEnd(10)} ${r.path.padEnd(16)} ${rps.toFixed(0).padStart(7)} req/s  p50 ${r.m.p50.toFixed(2).padStart(6)} ms  p99 ${r.m.p99.toFixed(2).padStart(6)} ms${cpuColumns(r.cpu)}`;
}

type Case = {
  scenario: string;
  path: string;
  op: (request: HttpClient) => Promise<unknown>;
  base: string;
};

/** One measured window of a case, and the CPU each process spent in it. */
type Window = { m: Measurement; cpuUs: CpuPerRequest };

async function benchBackend(backend: Backend, databaseUrl: string | undefined): Promise<Row[]> {
  const server = await startServer(databaseUrl);
  // PGlite is embedded: the direct baseline gets its own in-process instance with the same schema.
  const db: Database = await openDatabase(databaseUrl ? { databaseUrl } : {});
  if (!databaseUrl)
    await bootstrap(db, { migrationsDir: MIGRATIONS_DIR, log: createLogger('silent') });
  const headers = { apikey: server.anonKey, authorization: `Bearer ${server.anonKey}` };
  const postHeaders = { ...headers, 'content-type': 'application/json' };
  const expect = (want: number) => (status: number) => {
    if (status !== want) throw new Error(`unexpected HTTP ${status}`);
  };
  const cases: Case[] = [
    {
      scenario: 'get-by-id',
      path: 'REST',
      base: server.url,
      op: (request) =>
        request('GET', `/rest/v1/bench_items?select=*&id=eq.${randomId()}`, headers).then(
          expect(200),
        ),
    },
    {
      scenario: 'get-by-id',
      path: 'direct',
      base: server.url,
      op: () => db.query(GET_SQL, getParams(randomId())),
    },
    {
      scenario: 'get-by-id',
      path: 'HTTP alone',
      base: server.floorUrl,
      op: (request) => request('GET', '/', headers).then(expect(200)),
    },
    {
      scenario: 'get-by-id',
      path: 'direct+role',
      base: server.url,
      op: () =>
        batchAs(db, ANON, { method: 'GET', path: '/bench_items' }, [
          { sql: GET_SQL, params: getParams(randomId()) },
        ]),
    },
    {
      scenario: 'get-by-id',
      path: 'HTTP+batch',
      base: server.floorUrl,
      op: (request) => request('GET', `/by-id?id=${randomId()}`, headers).then(expect(200)),
    },
    {
      scenario: 'post-row',
      path: 'REST',
      base: server.url,
      op: (request) =>
        request(
          'POST',
          '/rest/v1/bench_items',
          postHeaders,
          JSON.stringify({ name: 'bench', qty: 1 }),
        ).then(expect(201)),
    },
    {
      scenario: 'post-row',
      path: 'direct',
      base: server.url,
      op: () => db.query(INSERT_SQL, [newRow()]),
    },
    {
      scenario: 'post-row',
      path: 'direct+role',
      base: server.url,
      op: () =>
        batchAs(db, ANON, { method: 'POST', path: '/bench_items' }, [
          { sql: INSERT_SQL, params: [newRow()] },
        ]),
    },
    {
      scenario: 'post-row',
      path: 'HTTP+batch',
      base: server.floorUrl,
      op: (request) =>
        request('POST', '/insert', postHeaders, JSON.stringify({ name: 'bench', qty: 1 })).then(
          expect(201),
        ),
    },
  ];

  const measureCase = async (c: Case, warmupSeconds: number): Promise<Window> => {
    const request = httpClient(c.base, CLIENTS);
    const overHttp = c.path === 'REST' || c.path.startsWith('HTTP');
    const usesPostgres = backend === 'postgres' && c.path !== 'HTTP alone';
    const reading = (): CpuPerRequest => ({
      bench: processCpuUs(process.pid),
      ...(overHttp ? { server: processCpuUs(server.pid) } : {}),
      ...(usesPostgres ? { postgres: postgresCpuUs() } : {}),
    });
    let before: CpuPerRequest | undefined;
    try {
      const m = await measure(
        async () => void (await c.op(request)),
        CLIENTS,
        SECONDS / ROUNDS,
        warmupSeconds,
        () => (before = reading()),
      );
      const [then, now] = [before!, reading()];
      const spent = (key: keyof CpuPerRequest) => {
        const at = then[key];
        return at === undefined ? undefined : now[key]! - at;
      };
      return {
        m,
        cpuUs: { bench: spent('bench')!, server: spent('server'), postgres: spent('postgres') },
      };
    } finally {
      request.close();
    }
  };

  try {
    // Round after round through every case, so a drift in the machine's speed (it shares its
    // host) weighs on REST and on its baselines alike; each row sums its case's windows.
    const windows = new Map<Case, Window[]>(cases.map((c) => [c, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of cases) {
        windows.get(c)!.push(await measureCase(c, round === 0 ? WARMUP_SECONDS : REWARM_SECONDS));
      }
    }
    const rows = cases.map((c) => toRow(backend, c, windows.get(c)!));
    rows.forEach((row) => console.log(fmt(row)));
    return rows;
  } finally {
    await db.close();
    await server.stop();
  }
}

function toRow(backend: string, c: Case, windows: Window[]): Row {
  const m = combine(windows.map((w) => w.m));
  const perRequest = (key: keyof CpuPerRequest) =>
    windows[0]!.cpuUs[key] === undefined
      ? undefined
      : windows.reduce((sum, w) => sum + w.cpuUs[key]!, 0) / m.requests;
  const cpu: CpuPerRequest = { bench: perRequest('bench')! };
  if (perRequest('server') !== undefined) cpu.server = perRequest('server');
  if (perRequest('postgres') !== undefined) cpu.postgres = perRequest('postgres');
  const rounds = windows.map((w) => w.m.requests / w.m.seconds);
  return { backend, scenario: c.scenario, path: c.path, m, cpu, rounds };
}

/** Throughput cost of REST against `direct` the platform must stay within, by backend and case. */
const GOALS: Record<string, number> = { 'postgres post-row': 1.3 };

/**
 * Per case: REST against the goal's baseline, then that cost split into the HTTP hop
 * (`HTTP+batch`/direct) and REST's own work (REST/`HTTP+batch`), whose product it is.
 */
function ratios(rows: Row[]) {
  const rps = (r: Row) => r.m.requests / r.m.seconds;
  const x = (n: number) => `${n.toFixed(2)}x`;
  /** Throughput cost of `slow` against `fast`, over all rounds and round by round. */
  const cost = (slow: Row, fast: Row) =>
    `${x(rps(fast) / rps(slow))} (rounds ${slow.rounds.map((r, i) => (fast.rounds[i]! / r).toFixed(2)).join(' ')})`;
  for (const backend of ['postgres', 'pglite']) {
    for (const scenario of ['get-by-id', 'post-row']) {
      const pick = (path: string) =>
        rows.find((r) => r.backend === backend && r.scenario === scenario && r.path === path);
      const rest = pick('REST');
      const direct = pick('direct');
      const tx = pick('direct+role');
      const hop = pick('HTTP+batch');
      const empty = rows.find((r) => r.backend === backend && r.path === 'HTTP alone');
      if (!rest || !direct || !tx || !hop || !empty) continue;
      const goal = GOALS[`${backend} ${scenario}`];
      const verdict =
        goal === undefined
          ? ''
          : `  [goal ≤ ${x(goal)}: ${rps(direct) / rps(rest) <= goal ? 'met' : 'NOT met'}]`;
      console.log(
        `${backend.padEnd(10)} ${scenario.padEnd(10)} REST/direct: throughput cost ${cost(rest, direct)}${verdict}, ` +
          `p50 ${x(rest.m.p50 / direct.m.p50)}, CPU ${x(totalCpu(rest.cpu) / totalCpu(direct.cpu))}\n` +
          `${''.padEnd(22)}= HTTP hop (HTTP+batch/direct) ${cost(hop, direct)}` +
          ` × REST's own work (REST/HTTP+batch) ${cost(rest, hop)}  |  ` +
          `REST/direct+role: ${x(rps(tx) / rps(rest))}  |  empty HTTP round trip/direct: ${x(rps(direct) / rps(empty))}`,
      );
    }
  }
}

console.log(
  `bench/rest: ${CLIENTS} concurrent clients, keep-alive HTTP; each case measured ${SECONDS} s in all, ` +
    `in ${ROUNDS} rounds through every case`,
);
// On PostgreSQL the server process bootstraps the fresh database (schema + 1000 rows) first.
const rows = await onEachBackend(benchBackend);
console.log('');
ratios(rows);
