/**
 * The platform under test, in its own process so the load generator does not share its event
 * loop, plus a bare `node:http` server in the same process (the HTTP stack /rest/v1 is served
 * from) that answers:
 *  - `GET /`: a fixed body — what one HTTP round trip costs with no work behind it;
 *  - `GET /by-id?id=N` and `POST /insert`: the batch /rest/v1 runs for the bench's two
 *    requests (same statements, same settings, same database handle and connections), with none
 *    of REST's own work — what any HTTP layer in front of that batch costs.
 * Prints `{"url","floorUrl","anonKey"}` on one stdout line once both listen.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configFromEnv } from '../../supabase/local/config.ts';
import type { Database } from '../../supabase/local/db/index.ts';
import { createLogger } from '../../supabase/local/log.ts';
import { batchAs } from '../../supabase/local/request-auth.ts';
import { createPlatform } from '../../supabase/local/server.ts';
import { MIGRATIONS_DIR } from './setup.ts';
import { ANON, GET_SQL, getParams, INSERT_SQL } from './statements.ts';

const databaseUrl = process.env.BENCH_DATABASE_URL;
const config = {
  ...configFromEnv({}),
  apiPort: 0,
  dataDir: undefined,
  databaseUrl,
  logLevel: 'silent' as const,
  migrationsDir: MIGRATIONS_DIR,
  seedFile: undefined,
};
const platform = await createPlatform(config, { log: createLogger('silent') });
const url = await platform.listen(0);

const JSON_HEADERS = { 'content-type': 'application/json' };
/** An empty answer framed by its length, as /rest/v1 writes one (rest/index.ts). */
const EMPTY_HEADERS = { 'content-length': '0' };

/** The request's batch as /rest/v1 runs it; a failure answers 500 and resolves undefined. */
function batchAsAnon(
  db: Database,
  req: IncomingMessage,
  res: ServerResponse,
  sql: string,
  params: unknown[],
) {
  // `request.headers` as REST sets it (the load generator never repeats a header).
  const headers = req.headers as Record<string, string>;
  const request = { method: req.method!, path: '/bench_items', headers };
  return batchAs(db, ANON, request, [{ sql, params }]).catch((e: unknown) => {
    res.writeHead(500, JSON_HEADERS).end(JSON.stringify({ message: String(e) }));
    return undefined;
  });
}

function floorHandler(db: Database) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const target = req.url ?? '/';
    if (req.method === 'GET' && target.startsWith('/by-id?id=')) {
      const id = Number(target.slice('/by-id?id='.length));
      void batchAsAnon(db, req, res, GET_SQL, getParams(id)).then((results) => {
        if (results) res.writeHead(200, JSON_HEADERS).end(results[0]!.rows[0]!.body as string);
      });
      return;
    }
    if (req.method === 'POST' && target === '/insert') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.once('end', () => {
        const row = JSON.stringify([JSON.parse(Buffer.concat(chunks).toString('utf8'))]);
        void batchAsAnon(db, req, res, INSERT_SQL, [row]).then((results) => {
          if (results) res.writeHead(201, EMPTY_HEADERS).end();
        });
      });
      return;
    }
    res.writeHead(200, JSON_HEADERS).end('[]');
  };
}

const floor = createServer(floorHandler(platform.ctx.db));
const floorUrl = await new Promise<string>((resolve) =>
  floor.listen(0, '127.0.0.1', () =>
    resolve(`http://127.0.0.1:${(floor.address() as AddressInfo).port}`),
  ),
);
process.stdout.write(`${JSON.stringify({ url, floorUrl, anonKey: platform.ctx.keys.anonKey })}\n`);
process.on('SIGTERM', () => {
  floor.close();
  void platform.close().finally(() => process.exit(0));
});
