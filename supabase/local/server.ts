import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { mailboxOpen, type PlatformConfig } from './config.ts';
import type { PlatformContext } from './context.ts';
import { openDatabase, type Database } from './db/index.ts';
import { bootstrap, type BootstrapResult } from './bootstrap/index.ts';
import { deriveApiKeys } from './api-keys.ts';
import { loadKeyring } from './signing-keys.ts';
import { cors, corsPolicy } from './cors.ts';
import type { NodeEnv } from './node-env.ts';
import { createLogger, logFormatFrom, logRequest, type Logger } from './log.ts';
import { createAuthApp } from './auth/index.ts';
import { createRestHandler, isRestTarget } from './rest/index.ts';
import { createStorageApp } from './storage/index.ts';
import { createFunctionsApp } from './functions/index.ts';
import { createMailbox } from './mailbox/index.ts';
import { createRealtime, type Realtime } from './realtime/index.ts';

/** Headers supabase-js sends from a browser (docs/platform-wire.md §1), allowed on every route. */
const EXPOSED_HEADERS = [
  'Content-Range',
  'X-Supabase-Api-Version',
  'Content-Type',
  'Content-Location',
  'Location',
  'X-Total-Count',
  'Link',
  'x-relay-error',
];

export type Platform = {
  ctx: PlatformContext;
  app: Hono<NodeEnv>;
  realtime: Realtime;
  bootstrap: BootstrapResult;
  /** Starts listening; port 0 picks a free one. Resolves to the base URL. */
  listen(port?: number): Promise<string>;
  /** Stops accepting, lets in-flight requests finish, closes sockets and the database. */
  close(): Promise<void>;
};

/** Methods that never write, so their answers need not wake Realtime's change feed. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type PlatformOptions = { db?: Database; log?: Logger };

export async function createPlatform(
  config: PlatformConfig,
  opts: PlatformOptions = {},
): Promise<Platform> {
  const log = opts.log ?? createLogger(config.logLevel, undefined, logFormatFrom(config.logFormat));
  const keyring = await loadKeyring(config);
  // A database handed in belongs to the caller (tests); one opened here is closed here.
  const ownsDb = !opts.db;
  const db =
    opts.db ??
    (await openDatabase(
      config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir },
      { onReopen: (cause) => log.error({ msg: 'embedded database reopened', cause }) },
    ));
  const boot = await bootstrap(db, {
    migrationsDir: config.migrationsDir,
    seedFile: config.seedFile,
    log,
  });
  const keys = await deriveApiKeys(config.jwtSecret);
  const mailbox = createMailbox(db, log, keys, {
    open: mailboxOpen(config),
    smtp: config.smtpUrl ? { url: config.smtpUrl, from: config.smtpFrom } : undefined,
  });
  const ctx: PlatformContext = { config, db, keys, keyring, mailer: mailbox.mailer, log };
  const realtime = await createRealtime(ctx);

  const corsHeaders = corsPolicy({
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'],
    exposeHeaders: EXPOSED_HEADERS,
    maxAgeSeconds: 86400,
  });
  const rest = await createRestHandler(ctx, corsHeaders);
  const app = new Hono<NodeEnv>();
  // The dev mailbox holds password-reset links: no other origin may read it (mailbox/index.ts).
  app.use('*', cors(corsHeaders, { except: '/mailbox' }));
  app.use('*', async (c, next) => {
    const start = performance.now();
    await next();
    logRequest(log, c.req.method, c.req.path, c.res.status, start);
  });
  // The route table.
  app.get('/health', (c) => c.json({ status: 'ok', database: db.kind }));
  app.route('/auth/v1', createAuthApp(ctx));
  app.route('/storage/v1', createStorageApp(ctx));
  app.route('/functions/v1', createFunctionsApp(ctx));
  app.route('/realtime/v1', realtime.api);
  app.route('/mailbox', mailbox.app);
  // …and /rest/v1, the hottest path, answered from Node's own request and response before Hono
  // builds anything for it (rest/index.ts says why).
  const hono = getRequestListener(app.fetch);
  const dispatch = (req: IncomingMessage, res: ServerResponse) => {
    // A request that may have written has committed by the time its answer is sent: its
    // changes go to Realtime's subscribers now, not at the change feed's next poll.
    if (!READ_METHODS.has(req.method ?? '')) res.once('finish', () => realtime.changesCommitted());
    if (isRestTarget(req.url ?? '')) rest.serve(req, res);
    else void hono(req, res);
  };
  app.notFound((c) => c.json({ message: 'no Route matched with those values' }, 404));
  app.onError((err, c) => {
    log.error({ msg: 'unhandled error', path: c.req.path, error: String(err) });
    return c.json({ message: 'An unexpected error occurred' }, 500);
  });

  let server: Server | undefined;

  return {
    ctx,
    app,
    realtime,
    bootstrap: boot,
    listen(port = config.apiPort) {
      return new Promise((resolve) => {
        server = createServer(dispatch);
        server.listen(port, config.host, () => {
          const { port: bound } = server!.address() as AddressInfo;
          resolve(`http://${config.host}:${bound}`);
        });
        server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
          if (!realtime.handleUpgrade(req, socket, head)) socket.destroy();
        });
      });
    },
    async close() {
      await realtime.close();
      await rest.close();
      if (server) await stopServing(server);
      if (ownsDb) await db.close();
    },
  };
}

/** How often a closing server looks for keep-alive connections that have gone idle. */
const IDLE_SWEEP_MS = 50;

/**
 * Stops accepting connections and resolves once the requests in flight are answered and every
 * connection is gone. http.Server#close ends only the connections idle at that moment: one
 * still answering goes back to keep-alive afterwards and, while its client keeps using it, holds
 * the close for ever (a restart that never came back). So idle ones are ended until none is left.
 */
function stopServing(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
  });
}
