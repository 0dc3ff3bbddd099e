/**
 * Booking through /rest/v1/rpc/paciente_agendar at 1, 16 and 64 concurrent clients, on distinct
 * slots and on one contested slot, beside a plain single-row insert through /rest/v1 in the same
 * run. Meant for PostgreSQL (`DATABASE_URL=… npx tsx bench/booking/index.ts`); without
 * DATABASE_URL it runs on PGlite and says so.
 */
import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/platform.ts';
import { httpClient, measure, type Measurement } from '../rest/load.ts';

const LEVELS = [1, 16, 64];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PATIENTS = 64;
const ZONE = 'America/Sao_Paulo';

/** Slot n (30-minute steps) from tomorrow 00:00 in São Paulo: always > 20 minutes ahead. */
const firstSlot = Temporal.Now.plainDateISO(ZONE)
  .add({ days: 1 })
  .toZonedDateTime({ timeZone: ZONE })
  .toInstant();
const slotAt = (n: number) => firstSlot.add({ minutes: 30 * n }).toString();

async function createDoctor(t: TestPlatform, name: string): Promise<string> {
  const { data, error } = await t.admin
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
  const inserted = await t.admin.from('agenda_medico').insert(blocks);
  if (inserted.error) throw new Error(inserted.error.message);
  return data.id;
}

/** Access tokens of complete-profile patients (valid CPFs), signed in through /auth/v1. */
async function patientTokens(t: TestPlatform): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < PATIENTS; i++) {
    const email = `bench${i}@bench.example`;
    const created = await t.admin.auth.admin.createUser({
      email,
      password: 'bench-password-1',
      email_confirm: true,
      user_metadata: { full_name: `Paciente ${i}`, cpf: cpf(i), data_nasc: '1990-01-01' },
    });
    if (created.error) throw new Error(created.error.message);
    const session = await t
      .client()
      .auth.signInWithPassword({ email, password: 'bench-password-1' });
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

type Line = { scenario: string; clients: number; m: Measurement; statuses: Map<number, number> };

function print(l: Line): void {
  const rps = l.m.requests / l.m.seconds;
  const statuses = [...l.statuses].map(([s, n]) => `${s}×${n}`).join(' ');
  console.log(
    `${l.scenario.padEnd(22)} ${String(l.clients).padStart(3)} clients ${rps.toFixed(0).padStart(6)} req/s  ` +
      `p50 ${l.m.p50.toFixed(2).padStart(7)} ms  p99 ${l.m.p99.toFixed(2).padStart(7)} ms  [${statuses}]`,
  );
}

async function main(): Promise<void> {
  const backend = process.env.DATABASE_URL
    ? 'PostgreSQL'
    : 'PGlite (set DATABASE_URL for PostgreSQL)';
  console.log(`booking bench on ${backend}, ${SECONDS}s per line`);
  const t = await startTestPlatform();
  try {
    // A patient may hold only a few open unpaid bookings (src/domain/rules/limits.ts); the
    // bench books thousands with 64 patients, so the cap is off here: its check (one indexed
    // count per booking) is not what this bench measures.
    await t.platform.ctx.db.query(
      'alter table public.agendamentos disable trigger agendamentos_unpaid_cap',
    );
    console.log('(the unpaid-booking cap is disabled for this bench)');
    const servico = await t.admin.from('servicos').insert({ nome: 'Teleconsulta' });
    if (servico.error) throw new Error(servico.error.message);
    const tokens = await patientTokens(t);
    const lines: Line[] = [];
    let next = 0;
    const patientHeaders = () => {
      const token = tokens[next++ % tokens.length]!;
      return {
        apikey: t.anonKey,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      };
    };
    const serviceHeaders = {
      apikey: t.serviceRoleKey,
      authorization: `Bearer ${t.serviceRoleKey}`,
      'content-type': 'application/json',
    };

    const run = async (
      scenario: string,
      clients: number,
      op: (request: ReturnType<typeof httpClient>) => Promise<number>,
    ) => {
      const request = httpClient(t.url, clients);
      const statuses = new Map<number, number>();
      const m = await measure(
        async () => {
          const status = await op(request);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        },
        clients,
        SECONDS,
      );
      const line = { scenario, clients, m, statuses };
      print(line);
      lines.push(line);
    };

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

      const distinctDoctor = await createDoctor(t, `Distinct ${clients}`);
      let slot = 0;
      await run('book distinct slots', clients, (request) =>
        request(
          'POST',
          '/rest/v1/rpc/paciente_agendar',
          patientHeaders(),
          JSON.stringify({
            p_medico_id: distinctDoctor,
            p_horario_inicio: slotAt(slot++),
            p_mutation_id: randomUUID(),
          }),
        ),
      );

      const contestedDoctor = await createDoctor(t, `Contested ${clients}`);
      const contested = slotAt(0);
      await run('book one contested slot', clients, (request) =>
        request(
          'POST',
          '/rest/v1/rpc/paciente_agendar',
          patientHeaders(),
          JSON.stringify({
            p_medico_id: contestedDoctor,
            p_horario_inicio: contested,
            p_mutation_id: randomUUID(),
          }),
        ),
      );
    }

    console.log('\nratio booking (distinct slots) / plain insert, requests per second:');
    for (const clients of LEVELS) {
      const rps = (scenario: string) => {
        const l = lines.find((x) => x.scenario === scenario && x.clients === clients);
        return l ? l.m.requests / l.m.seconds : 0;
      };
      const ratio = rps('book distinct slots') / rps('insert (plain row)');
      console.log(`  ${String(clients).padStart(3)} clients: ${ratio.toFixed(2)}`);
    }
  } finally {
    await t.stop();
  }
}

await main();
