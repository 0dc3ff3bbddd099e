import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PlatformContext } from '../context.ts';
import type { CorsPolicy } from '../cors.ts';
import { logRequest, type Logger } from '../log.ts';
import { apiError } from './errors.ts';
import { checkResponseSize } from './limits.ts';
import { admit, headerText, type RestInput } from './request.ts';
import { rpcRequest } from './rpc-request.ts';
import { openRestState, type RestState } from './state.ts';
import { tableRequest } from './table-request.ts';
import { errorReply, type Reply } from './response.ts';

export const REST_PREFIX = '/rest/v1';

/** Whether a request target (`req.url`) belongs to /rest/v1. */
export function isRestTarget(target: string): boolean {
  if (!target.startsWith(REST_PREFIX)) return false;
  const next = target.charAt(REST_PREFIX.length);
  return next === '' || next === '/' || next === '?';
}

/** `/{table}` or `/rpc/{function}` below the prefix, names percent-decoded. */
function route(path: string): { name: string; rpc: boolean } | undefined {
  const match = /^\/(?:(rpc)\/)?([^/]+)$/.exec(path);
  if (!match) return undefined;
  return { name: decode(match[2]!), rpc: match[1] !== undefined };
}

function decode(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * /rest/v1 served from Node's own request and response: the platform's hottest path skips the
 * Fetch `Request`/`Response` that Hono builds around every request and its middleware chain,
 * which cost about a fifth of the server's CPU per REST request. It keeps the CORS policy,
 * access log and error shape of the Hono routes.
 */
export async function createRestHandler(
  ctx: PlatformContext,
  cors: CorsPolicy,
): Promise<RestHandler> {
  const { state, close } = await openRestState(ctx);

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const start = performance.now();
    const target = req.url ?? '/';
    const queryAt = target.indexOf('?');
    const path = queryAt === -1 ? target : target.slice(0, queryAt);
    const exchange: Exchange = {
      res,
      log: ctx.log,
      start,
      method: req.method ?? 'GET',
      path,
      cors: {},
    };
    const head = exchange.method === 'HEAD';

    const preflight = cors(
      {
        method: exchange.method,
        origin: headerText(req.headers.origin),
        requestedHeaders: headerText(req.headers['access-control-request-headers']),
      },
      (name, value) => (exchange.cors[name] = value),
    );
    if (preflight) return send(exchange, { status: 204, headers: {}, body: null });
    const found = route(path.slice(REST_PREFIX.length));
    if (!found) {
      return send(
        exchange,
        errorReply(apiError(404, 'PGRST125', 'Invalid path specified in request URL'), head),
      );
    }
    const input = {
      method: exchange.method,
      headers: req.headers,
      query: queryAt === -1 ? '' : target.slice(queryAt + 1),
      body: req,
    };
    answer(state, input, found.name, found.rpc)
      .catch((e: unknown) => {
        ctx.log.error({ msg: 'rest request failed', path, error: String(e) });
        return errorReply(apiError(500, 'PGRST000', 'An unexpected error occurred'), head);
      })
      .then(
        (r) => send(exchange, r),
        (e: unknown) => {
          ctx.log.error({ msg: 'rest response failed', path, error: String(e) });
          res.destroy();
        },
      );
  };
  return { serve, close };
}

/** Admits the request, then answers it as a table or view, or as function `name` when `rpc`. */
async function answer(s: RestState, input: RestInput, name: string, rpc: boolean): Promise<Reply> {
  const admitted = await admit(s, input, name, rpc);
  if (!admitted.ok) return errorReply(admitted.error, input.method === 'HEAD');
  const r = admitted.value;
  const reply = await (rpc ? rpcRequest(s, r) : tableRequest(s, r));
  const tooLarge = checkResponseSize(reply.body, s.ctx.config.restMaxResponseBytes);
  return tooLarge ? errorReply(tooLarge) : reply;
}

export type RestHandler = {
  serve(req: IncomingMessage, res: ServerResponse): void;
  close(): Promise<void>;
};

/** Whether the answer carries a body at all: HEAD, 204 and 304 never do. */
const mayHaveBody = (method: string, status: number) =>
  method !== 'HEAD' && status !== 204 && status !== 304;

/** One request in flight; plain data, so the hot path creates no closures for it. */
type Exchange = {
  res: ServerResponse;
  log: Logger;
  start: number;
  method: string;
  path: string;
  /**
   * The CORS headers, written with the reply's own in one `writeHead`: a header set on the
   * response beforehand sends Node through its slower merging path.
   */
  cors: Record<string, string>;
};

function send(x: Exchange, r: Reply): void {
  const headers = Object.assign(x.cors, r.headers);
  // With the length known up front Node writes headers and body in one go, unchunked; an empty
  // answer (a return=minimal write) says so too, rather than closing an empty chunked body.
  if (r.body !== null) headers['content-length'] = String(Buffer.byteLength(r.body));
  else if (mayHaveBody(x.method, r.status)) headers['content-length'] = '0';
  x.res.writeHead(r.status, headers);
  x.res.end(r.body ?? undefined);
  logRequest(x.log, x.method, x.path, r.status, x.start);
}
