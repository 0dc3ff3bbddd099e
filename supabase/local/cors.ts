import type { Context, MiddlewareHandler } from 'hono';
import type { NodeEnv } from './node-env.ts';

export type CorsOptions = {
  allowMethods: readonly string[];
  exposeHeaders: readonly string[];
  maxAgeSeconds: number;
};

/**
 * CORS as the Supabase gateway answers it: any origin is echoed back with credentials allowed,
 * preflights allow the requested headers.
 *
 * Headers go onto Node's outgoing message, which `writeHead` merges with the handler's own.
 * Hono's `cors` sets them on `c.res` instead, which turns every lazily built response into a
 * full Fetch `Response` and cost the REST layer more than half its throughput.
 */
export function cors(opts: CorsOptions): MiddlewareHandler<NodeEnv> {
  const methods = opts.allowMethods.join(',');
  const exposed = opts.exposeHeaders.join(',');
  const maxAge = String(opts.maxAgeSeconds);

  return async (c, next) => {
    const set = headerSetter(c);
    set('Access-Control-Allow-Origin', c.req.header('origin') || '*');
    set('Access-Control-Allow-Credentials', 'true');
    set('Access-Control-Expose-Headers', exposed);
    set('Vary', 'Origin');
    if (c.req.method !== 'OPTIONS') return next();

    set('Access-Control-Max-Age', maxAge);
    set('Access-Control-Allow-Methods', methods);
    const requested = c.req.header('access-control-request-headers');
    if (requested) {
      set(
        'Access-Control-Allow-Headers',
        requested
          .split(',')
          .map((h) => h.trim())
          .join(','),
      );
      set('Vary', 'Origin, Access-Control-Request-Headers');
    }
    return c.body(null, 204);
  };
}

/** Node's outgoing message when served by @hono/node-server; Hono's headers in-process. */
function headerSetter(c: Context<NodeEnv>) {
  const outgoing = c.env?.outgoing;
  if (outgoing) return (name: string, value: string) => void outgoing.setHeader(name, value);
  return (name: string, value: string) => c.header(name, value);
}
