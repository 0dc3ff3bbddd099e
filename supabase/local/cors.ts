import type { Context, MiddlewareHandler } from 'hono';
import type { NodeEnv } from './node-env.ts';

export type CorsOptions = {
  allowMethods: readonly string[];
  exposeHeaders: readonly string[];
  maxAgeSeconds: number;
};

/** What CORS looks at in a request. */
export type CorsRequest = {
  method: string;
  origin: string | undefined;
  requestedHeaders: string | undefined;
};

/**
 * Sets a request's CORS headers through `set`; resolves whether it is a preflight, which the
 * caller answers with 204 and no body.
 */
export type CorsPolicy = (req: CorsRequest, set: (name: string, value: string) => void) => boolean;

/**
 * CORS as the Supabase gateway answers it: any origin is echoed back with credentials allowed,
 * preflights allow the requested headers.
 */
export function corsPolicy(opts: CorsOptions): CorsPolicy {
  const methods = opts.allowMethods.join(',');
  const exposed = opts.exposeHeaders.join(',');
  const maxAge = String(opts.maxAgeSeconds);

  return (req, set) => {
    set('Access-Control-Allow-Origin', req.origin || '*');
    set('Access-Control-Allow-Credentials', 'true');
    set('Access-Control-Expose-Headers', exposed);
    set('Vary', 'Origin');
    if (req.method !== 'OPTIONS') return false;

    set('Access-Control-Max-Age', maxAge);
    set('Access-Control-Allow-Methods', methods);
    if (req.requestedHeaders) {
      set(
        'Access-Control-Allow-Headers',
        req.requestedHeaders
          .split(',')
          .map((h) => h.trim())
          .join(','),
      );
      set('Vary', 'Origin, Access-Control-Request-Headers');
    }
    return true;
  };
}

/**
 * The policy as Hono middleware; paths below `except` get no CORS headers at all. Headers go onto Node's outgoing message, which `writeHead`
 * merges with the handler's own: Hono's `cors` sets them on `c.res` instead, which turns every
 * lazily built response into a full Fetch `Response`.
 */
export function cors(
  policy: CorsPolicy,
  opts: { except?: string } = {},
): MiddlewareHandler<NodeEnv> {
  return async (c, next) => {
    if (opts.except && c.req.path.startsWith(opts.except)) return next();
    const preflight = policy(
      {
        method: c.req.method,
        origin: c.req.header('origin'),
        requestedHeaders: c.req.header('access-control-request-headers'),
      },
      headerSetter(c),
    );
    return preflight ? c.body(null, 204) : next();
  };
}

/** Node's outgoing message when served by @hono/node-server; Hono's headers in-process. */
function headerSetter(c: Context<NodeEnv>) {
  const outgoing = c.env?.outgoing;
  if (outgoing) return (name: string, value: string) => void outgoing.setHeader(name, value);
  return (name: string, value: string) => c.header(name, value);
}
