/**
 * Booking through /rest/v1/rpc/paciente_agendar at 1, 16 and 64 concurrent clients, on distinct
 * slots of one doctor and on one contested slot, beside a plain single-row insert through
 * /rest/v1 in the same run — on PostgreSQL (a fresh database on the server of DATABASE_URL, the
 * machine's own by default) and on PGlite. The platform runs in a process of its own
 * (server.ts), so the load generator does not share its event loop.
 *
 * At the goal's concurrency the distinct-slot booking is also measured without REST, which
 * splits its cost:
 *  - `HTTP+batch`: the batch /rest/v1 runs for it (caller's settings, same statement) behind a
 *    bare `node:http` handler in the platform's process — the database function plus an HTTP hop;
 *  - `direct` (PostgreSQL): that batch sent by this process straight to the database.
 * Each line shows the CPU time per request of every process taking part (this one, the
 * platform's server, the PostgreSQL backends). `npx tsx bench/booking/index.ts` or `npm run bench`.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { SupabaseClient } from '@supabase/supabase-js';
import { Temporal } from 'temporal-polyfill';
import { openDatabase, isPgError, type Database } from '../../supabase/local/db/index.ts';
import { batchAs } from '../../supabase/local/request-auth.ts';
import { testClient } from '../../sync/testing/platform.ts';
import { startChild } from '../child.ts';
import { cpuColumns, postgresCpuUs, processCpuUs, type CpuPerRequest } from '../cpu.ts';
import { httpClient, measure, type HttpClient, type Measurement } from '../rest/load.ts';
import { onEachBackend, type Backend } from '../rest/setup.ts';

const LEVELS = [1, 16, 64];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/**
 * Unmeasured booking load before the first line, as bench/rest warms up: PGlite's WebAssembly
 * reaches its optimised tier only after some seconds of load (a server runs for hours), and
 * until then its code is slower and the compiler threads' CPU counts in the server's column.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const PATIENTS = 64;
const ZONE = 'America/Sao_Paulo';
/** Issue 34's goal for the booking RPC, on both databases. */
const GOAL = { clients: 16, rps: 1000, p99Ms: 50 };

/** Slot n (30-minute steps) from tomorrow 00:00 in São Paulo: always > 20 minutes ahead. */
const firstSlot = Temporal.Now.plainDateISO(ZONE)
  .add({ days: 1 })
  .toZonedDateTime({ timeZone: ZONE })
  .toInstant().epochMilliseconds;
const SLOT_MS = 30 * 60_000;
/**
 * Slot n as an ISO instant. The load generator shares the machine's cores with the server it
 * measures, and the Temporal polyfill's `Instant.add().toString()` cost it ~0.2 ms per booking;
 * the engine's own ISO formatting of an epoch needs no time zone.
 */
const slotAt = (n: number) => new Date(firstSlot + n * SLOT_MS).toISOString();

type Ready = {
  url: string;
  floorUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  /** The statement REST runs for a booking, and its parameters after the JSON arguments. */
  bookSql: string;
  bookTail: unknown[];
};

const BOOK_PATH = '/rpc/paciente_agendar';

async function createDoctor(admin: SupabaseClient, name: string): Promise<string> {
  const { data, error } = await admin
    .from('medicos')
    .insert({
      name,
      public_name: name,
      specialty: 'Clínica Geral',
      crm: '1',
      uf: 'SP',
      is_public: true,
      price_in_cents: 15000,
    })
    .select('id')
    .single<{ id: string }>();
  if (error) throw new Error(error.message);
  const blocks = [0, 1, 2, 3, 4, 5, 6].map((d) => ({
    medico_id: data.id,
    dia_semana: d,
    hora_inicio: '00:00',
    hora_fim: '24:00',
    intervalo_em_minutos: 30,
  }));
  const inserted = await admin.from('agenda_medico').insert(blocks);
  if (inserted.error) throw new Error(inserted.error.message);
  return data.id;
}

/** Access tokens of complete-profile patients (valid CPFs), signed in through /auth/v1. */
async function patientTokens(server: Ready, admin: SupabaseClient): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < PATIENTS; i++) {
    const email = `bench${i}@bench.example`;
    const created = await admin.auth.admin.createUser({
      email,
      password: 'bench-password-1',
      email_confirm: true,
      user_metadata: { full_name: `Paciente ${i}`, cpf: cpf(i), data_nasc: '1990-01-01' },
    });
    if (created.error) throw new Error(created.error.message);
    const session = await testClient(server.url, server.anonKey).auth.signInWithPassword({
      email,
      password: 'bench-password-1',
    });
    if (session.error) throw new Error(session.error.message);
    tokens.push(session.data.session.access_token);
  }
  return tokens;
}

function cpf(n: number): string {
  const digits = String(200000000 + n * 7919)
    .slice(-9)
    .split('')
    .map(Number);
  const check = (ds: number[]) => {
    const r = (ds.reduce((s, d, i) => s + d * (ds.length + 1 - i), 0) * 10) % 11;
    return r === 10 ? 0 : r;
  };
  const d1 = check(digits);
  return [...digits, d1, check([...digits, d1])].join('');
}

/** A token's claims as the platform reads them (it verified the token when it was issued). */
function claimsOf(token: string): Record<string, unknown> & { role: string } {
  const payload = token.split('.')[1]!;
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
    role: string;
  } & Record<string, unknown>;
}

type Line = {
  backend: string;
  scenario: string;
  clients: number;
  m: Measurement;
  cpu: CpuPerRequest;
  statuses: Map<number, number>;
};

const rpsOf = (l: Line) => l.m.requests / l.m.seconds;

function print(l: Line): void {
  const statuses = [...l.statuses].map(([s, n]) => `${s}×${n}`).join(' ');
  const goal =
    l.scenario === 'book distinct slots' && l.clients === GOAL.clients
      ? `  [goal ≥ ${GOAL.rps}/s, p99 < ${GOAL.p99Ms} ms: ${
          rpsOf(l) >= GOAL.rps && l.m.p99 < GOAL.p99Ms ? 'met' : 'NOT met'
        }]`
      : '';
  console.log(
    `${l.backend.padEnd(9)} ${l.scenario.padEnd(26)} ${String(l.clients).padStart(3)} clients ` +
      `${rpsOf(l).toFixed(0).padStart(6)} req/s  p50 ${l.m.p50.toFixed(2).padStart(7)} ms  ` +
      `p99 ${l.m.p99.toFixed(2).padStart(7)} ms  [${statuses}]${goal}${cpuColumns(l.cpu)}`,
  );
}

async function benchBackend(backend: Backend, databaseUrl: string | undefined): Promise<Line[]> {
  const child = await startChild<Ready>(
    fileURLToPath(new URL('./server.ts', import.meta.url)),
    databaseUrl ? { BENCH_DATABASE_URL: databaseUrl } : {},
  );
  const server = child.ready;
  const direct: Database | undefined = databaseUrl
    ? await openDatabase({ databaseUrl })
    : undefined;
  const lines: Line[] = [];
  try {
    const admin = testClient(server.url, server.serviceRoleKey);
    const servico = await admin.from('servicos').insert({ nome: 'Teleconsulta' });
    if (servico.error) throw new Error(servico.error.message);
    const tokens = await patientTokens(server, admin);
    let next = 0;
    const patientHeaders = () => {
      const token = tokens[next++ % tokens.length]!;
      return {
        apikey: server.anonKey,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      };
    };
    const serviceHeaders = {
      apikey: server.serviceRoleKey,
      authorization: `Bearer ${server.serviceRoleKey}`,
      'content-type': 'application/json',
    };

    const run = async (
      scenario: string,
      clients: number,
      op: (request: HttpClient) => Promise<number>,
      base: string | null = server.url,
    ) => {
      const overHttp = base !== null;
      const request = overHttp ? httpClient(base, clients) : undefined;
      const reading = (): CpuPerRequest => ({
        bench: processCpuUs(process.pid),
        ...(overHttp ? { server: processCpuUs(child.pid) } : {}),
        ...(databaseUrl ? { postgres: postgresCpuUs() } : {}),
      });
      const statuses = new Map<number, number>();
      let before: CpuPerRequest | undefined;
      try {
        const m = await measure(
          async () => {
            // Without a base the operation speaks to the database and takes no client.
            const status = await op(request!);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          },
          clients,
          SECONDS,
          0.5,
          () => {
            statuses.clear();
            before = reading();
          },
        );
        const now = reading();
        const per = (key: keyof CpuPerRequest) =>
          before![key] === undefined ? undefined : (now[key]! - before![key]) / m.requests;
        const cpu: CpuPerRequest = { bench: per('bench')! };
        if (overHttp) cpu.server = per('server');
        if (databaseUrl) cpu.postgres = per('postgres');
        const line = { backend, scenario, clients, m, cpu, statuses };
        print(line);
        lines.push(line);
      } finally {
        request?.close();
      }
    };

    const booking = (doctor: string, slot: () => string) =>
      JSON.stringify({
        p_medico_id: doctor,
        p_horario_inicio: slot(),
        p_mutation_id: randomUUID(),
      });

    const warmDoctor = await createDoctor(admin, 'Warm-up');
    let warmSlot = 0;
    const warm = httpClient(server.url, GOAL.clients);
    try {
      await measure(
        async () => {
          const body = booking(warmDoctor, () => slotAt(warmSlot++));
          const status = await warm('POST', `/rest/v1${BOOK_PATH}`, patientHeaders(), body);
          if (status !== 200) throw new Error(`warm-up booking answered ${status}`);
        },
        GOAL.clients,
        WARMUP_SECONDS,
        0,
      );
    } finally {
      warm.close();
    }

    for (const clients of LEVELS) {
      await run('insert (plain row)', clients, (request) =>
        request(
          'POST',
          '/rest/v1/doctor_applications',
          serviceHeaders,
          JSON.stringify({
            full_name: 'Bench',
            email: 'b@bench.example',
            crm: '1',
            uf: 'SP',
            specialty: 'S',
          }),
        ),
      );

      const distinctDoctor = await createDoctor(admin, `Distinct ${clients}`);
      let slot = 0;
      const distinct = () => booking(distinctDoctor, () => slotAt(slot++));
      await run('book distinct slots', clients, (request) =>
        request('POST', `/rest/v1${BOOK_PATH}`, patientHeaders(), distinct()),
      );
      if (clients === GOAL.clients) {
        await run(
          'book distinct (HTTP+batch)',
          clients,
          (request) => request('POST', '/book', patientHeaders(), distinct()),
          server.floorUrl,
        );
        if (direct) {
          await run(
            'book distinct (direct)',
            clients,
            async () => {
              const headers = patientHeaders();
              const token = headers.authorization.slice('Bearer '.length);
              const claims = claimsOf(token);
              const identity = { role: claims.role, claims };
              const request = { method: 'POST', path: BOOK_PATH, headers };
              try {
                await batchAs(direct, identity, request, [
                  { sql: server.bookSql, params: [distinct(), ...server.bookTail] },
                ]);
                return 200;
              } catch (e) {
                if (isPgError(e) && e.code === '23505') return 409;
                throw e;
              }
            },
            null,
          );
        }
      }

      const contestedDoctor = await createDoctor(admin, `Contested ${clients}`);
      const contested = slotAt(0);
      await run('book one contested slot', clients, (request) =>
        request(
          'POST',
          `/rest/v1${BOOK_PATH}`,
          patientHeaders(),
          booking(contestedDoctor, () => contested),
        ),
      );
    }
  } finally {
    await direct?.close();
    await child.stop();
  }
  return lines;
}

function ratios(lines: Line[]): void {
  const x = (n: number) => `${n.toFixed(2)}x`;
  for (const backend of ['postgres', 'pglite']) {
    const pick = (scenario: string, clients: number) =>
      lines.find((l) => l.backend === backend && l.scenario === scenario && l.clients === clients);
    const parts = LEVELS.map((clients) => {
      const book = pick('book distinct slots', clients);
      const insert = pick('insert (plain row)', clients);
      return book && insert ? `${clients}: ${x(rpsOf(book) / rpsOf(insert))}` : '';
    });
    console.log(
      `${backend.padEnd(9)} booking (distinct slots) / plain insert, req/s, by clients: ${parts.join('  ')}`,
    );
    const rest = pick('book distinct slots', GOAL.clients);
    const hop = pick('book distinct (HTTP+batch)', GOAL.clients);
    const direct = pick('book distinct (direct)', GOAL.clients);
    if (!rest || !hop) continue;
    console.log(
      `${''.padEnd(9)} at ${GOAL.clients} clients: REST's own work (REST/HTTP+batch) ${x(rpsOf(hop) / rpsOf(rest))}` +
        (direct ? `, HTTP hop (HTTP+batch/direct) ${x(rpsOf(direct) / rpsOf(hop))}` : '') +
        `; the rest is the database function`,
    );
  }
}

console.log(
  `booking bench on PostgreSQL and PGlite, ${SECONDS}s per line after ${WARMUP_SECONDS}s of unmeasured booking load ` +
    `(the unpaid-booking cap is disabled: a patient may hold only a few open unpaid bookings, ` +
    `src/domain/rules/limits.ts, and 64 patients book thousands here; its check is one indexed count per booking)`,
);
const lines = await onEachBackend(benchBackend);
console.log('');
ratios(lines);
