/**
 * The platform the booking bench measures, in its own process (as bench/rest/server.ts) so the
 * load generator does not share its event loop: the app's migrations, on PostgreSQL
 * (`BENCH_DATABASE_URL`) or on in-memory PGlite, with the unpaid-booking cap off (index.ts says
 * why). Beside it, a bare `node:http` server in the same process answers `POST /book` with the
 * batch /rest/v1 runs for a booking — the caller's settings and the same statement, on the
 * platform's own connections — and none of REST's own work, so the bench can split the cost of
 * a booking between REST and the database function.
 * Prints `{"url","floorUrl","anonKey","serviceRoleKey","bookSql","bookTail"}` on one stdout line
 * once both listen: the booking's statement and its parameters after the JSON arguments, for
 * the bench to send it straight to PostgreSQL too.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configFromEnv } from '../../supabase/local/config.ts';
import { isPgError, type Statement } from '../../supabase/local/db/index.ts';
import { createLogger } from '../../supabase/local/log.ts';
import { batchAs } from '../../supabase/local/request-auth.ts';
import { createIdentityCache } from '../../supabase/local/rest/identity-cache.ts';
import { negotiate, parsePrefer } from '../../supabase/local/rest/negotiate.ts';
import { resolveFunction, rpcPlan } from '../../supabase/local/rest/rpc.ts';
import { createSchemaCacheHolder } from '../../supabase/local/rest/schema-cache.ts';
import { readRestSettings } from '../../supabase/local/rest/state.ts';
import { createPlatform, type Platform } from '../../supabase/local/server.ts';

/** The RPC the bench books through, and the arguments it is called with. */
const BOOK_PATH = '/rpc/paciente_agendar';
const ARGS = ['p_medico_id', 'p_horario_inicio', 'p_mutation_id'];

const config = {
  ...configFromEnv({}),
  apiPort: 0,
  dataDir: undefined,
  databaseUrl: process.env.BENCH_DATABASE_URL,
  logLevel: 'silent' as const,
  autoconfirm: false,
  rateLimit: false,
  migrationsDir: 'supabase/migrations',
  seedFile: undefined,
};
const platform = await createPlatform(config, { log: createLogger('silent') });
const url = await platform.listen(0);
// Links in e-mails and the JWT issuer must name the port actually bound.
platform.ctx.config.apiExternalUrl = url;
await platform.ctx.db.query(
  'alter table public.agendamentos disable trigger agendamentos_unpaid_cap',
);

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * The statement /rest/v1 plans for a JSON POST of the booking's arguments (no `select`, no
 * `Prefer`, any media type), with the JSON arguments as its first parameter.
 */
async function bookingStatement(p: Platform): Promise<(args: string) => Statement> {
  const cache = await createSchemaCacheHolder(p.ctx.db, 'public').get();
  const settings = await readRestSettings(p.ctx);
  const lookup = { name: 'paciente_agendar', keys: ARGS, post: true, body: 'json' as const };
  const fn = resolveFunction(cache, { ...lookup, singleObject: false });
  const representation = negotiate(null);
  const prefer = parsePrefer(null);
  if (!fn.ok || !representation.ok || !prefer.ok) throw new Error('paciente_agendar not found');
  const sample = Object.fromEntries(ARGS.map((a) => [a, null]));
  const plan = rpcPlan(
    cache,
    { fn: fn.value, args: sample, whole: sample, singleObject: false },
    new URLSearchParams(),
    new Set(ARGS),
    {
      representation: representation.value,
      prefer: prefer.value,
      head: false,
      range: undefined,
      maxRows: settings.maxRows,
      aggregates: settings.aggregates,
    },
  );
  if (!plan.ok || plan.value.shape === 'affected') throw new Error('paciente_agendar not planned');
  const { sql, params } = plan.value;
  return (args) => ({ sql, params: [args, ...params.slice(1)] });
}

/** The booking's batch as /rest/v1 runs it, for the caller of the request's token. */
function floorHandler(p: Platform, booking: (args: string) => Statement) {
  const identify = createIdentityCache(p.ctx);
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      const headers = req.headers as Record<string, string>;
      void identify(headers.authorization ?? null, headers.apikey ?? null)
        .then(async (who) => {
          if (!who.ok) return void res.writeHead(401, JSON_HEADERS).end('{}');
          const request = { method: 'POST', path: BOOK_PATH, headers };
          const args = Buffer.concat(chunks).toString('utf8');
          const [result] = await batchAs(p.ctx.db, who.identity, request, [booking(args)]);
          res.writeHead(200, JSON_HEADERS).end(result!.rows[0]!.body as string);
        })
        .catch((e: unknown) => {
          const status = isPgError(e) && e.code === '23505' ? 409 : 500;
          res.writeHead(status, JSON_HEADERS).end(JSON.stringify({ message: String(e) }));
        });
    });
  };
}

const booking = await bookingStatement(platform);
const floor = createServer(floorHandler(platform, booking));
const floorUrl = await new Promise<string>((resolve) =>
  floor.listen(0, '127.0.0.1', () =>
    resolve(`http://127.0.0.1:${(floor.address() as AddressInfo).port}`),
  ),
);
const { anonKey, serviceRoleKey } = platform.ctx.keys;
const bookSql = booking('').sql;
const bookTail = booking('').params!.slice(1);
process.stdout.write(
  `${JSON.stringify({ url, floorUrl, anonKey, serviceRoleKey, bookSql, bookTail })}\n`,
);
process.on('SIGTERM', () => {
  floor.close();
  void platform.close().finally(() => process.exit(0));
});
